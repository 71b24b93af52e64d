import type { ReconcileContext } from "./context";
import { experimentPhase } from "./experiments";
import { completedCanaryPauseStep } from "./pause-context";
import { isStepPluginCompleted } from "./step-plugins";
import { atDesiredReplicaCountsForCanary } from "./canary-replicas";
import type { CanaryStep } from "./types";

/** The step-type switch of `completedCurrentCanaryStep` (`rollout/canary.go`). */
export function analysisAndPauseCompleted(ctx: ReconcileContext, step: CanaryStep, index: number): boolean {
  const ro = ctx.ro;
  if (step.pause) {
    return completedCanaryPauseStep(ro, step.pause, (cond) => ctx.elapsedSince(`pause:${cond.reason}`, cond.startTime));
  }
  if (step.setCanaryScale) return atDesiredReplicaCountsForCanary(ro, ctx.newRS, ctx.stableRS, ctx.otherRSs);
  if (step.setWeight !== undefined) {
    if (!atDesiredReplicaCountsForCanary(ro, ctx.newRS, ctx.stableRS, ctx.otherRSs)) return false;
    return ctx.weightVerified !== false;
  }
  if (step.experiment) {
    const name = ctx.newStatus.canary?.currentExperiment;
    const ex = name ? ctx.deps.cache.experimentsOf(ctx.key, ctx.ro.metadata.uid).find((e) => e.metadata.name === name) : undefined;
    return experimentPhase(ex) === "Successful";
  }
  if (step.analysis) {
    const ar = ctx.currentArs.step;
    return ar?.status?.phase === "Successful";
  }
  if (step.setHeaderRoute || step.setMirrorRoute) return true;
  if (step.plugin) return isStepPluginCompleted(ctx, index);
  return false;
}
