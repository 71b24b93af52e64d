import { analysisAndPauseCompleted } from "./canary-steps";
import { Message, Reason } from "./conditions";
import { podHashOf, type ReconcileContext } from "./context";
import { reconcileAnalysisRuns } from "./analysis";
import { durationSeconds } from "./duration";
import { reconcileExperiments } from "./experiments";
import { getPauseCondition } from "./pause-context";
import { reconcilePodRestart } from "./pod-restarter";
import {
  getAllReplicaSetsAndSyncRevision,
  reconcileRevisionHistoryLimit,
  removeScaleDownDeadlines,
  scaleDownDeadline,
  scaleReplicaSet,
} from "./replica-sets";
import { ensureSVCTargets } from "./services";
import { computeStepHash } from "./hash";
import { reconcileStepPlugin } from "./step-plugins";
import { canaryStepString, currentStepOf, desiredCanaryCounts, stepsOf } from "./steps";
import {
  calculateBaseStatus,
  calculateRolloutConditions,
  persistRolloutStatus,
  promoteStable,
  resetRolloutStatus,
  shouldFullPromoteCanary,
} from "./sync-status";
import { reconcileTrafficRouting } from "./traffic-routing";

const DEFAULT_SCALE_DOWN_DELAY_SECONDS = 30;
const DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS = 30;

/** `PodTemplateOrStepsChanged`. */
function podTemplateOrStepsChanged(ctx: ReconcileContext, desiredHash: string): boolean {
  const status = ctx.ro.status ?? {};
  return status.currentPodHash !== desiredHash || status.currentStepHash !== computeStepHash(stepsOf(ctx.ro));
}

/** `reconcileCanaryPause`: adds the CanaryPauseStep condition when a pause step is reached. */
function reconcileCanaryPause(ctx: ReconcileContext): void {
  const ro = ctx.ro;
  if (ro.spec.paused || ro.status?.promoteFull) return;
  const { step, index } = currentStepOf(ro);
  if (!step?.pause || index === null) return;
  const cond = getPauseCondition(ro, "CanaryPauseStep");
  if (!cond) {
    if (!ro.status?.controllerPause) ctx.pause.addPauseCondition("CanaryPauseStep");
    return;
  }
  const seconds = durationSeconds(step.pause.duration);
  if (seconds !== null) ctx.requeueAfter(seconds - ctx.elapsedSince(`pause:${cond.reason}`, cond.startTime) + 0.001);
}

/** Scales one ReplicaSet per pass, as upstream does: stable first, then new, then the others. */
function reconcileCanaryReplicaSets(ctx: ReconcileContext): boolean {
  removeScaleDownDeadlines(ctx);
  const desired = desiredCanaryCounts(ctx.ro);
  const routed = !!ctx.ro.spec.strategy.canary?.trafficRouting;
  if (ctx.stableRS && ctx.stableRS !== ctx.newRS && scaleReplicaSet(ctx, ctx.stableRS, desired.stable)) return true;
  if (ctx.newRS) {
    let target = desired.newRS;
    if (ctx.pause.isAborted() && routed && (ctx.newRS.spec.replicas ?? 0) > 0 && ctx.newRS !== ctx.stableRS) {
      const delay = ctx.ro.spec.strategy.canary?.abortScaleDownDelaySeconds ?? DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS;
      const left = delay > 0 ? scaleDownDeadline(ctx, ctx.newRS, delay) : 0;
      if (left > 0) {
        target = ctx.newRS.spec.replicas ?? 0;
        ctx.requeueAfter(left);
      } else target = 0;
    }
    if (scaleReplicaSet(ctx, ctx.newRS, target)) return true;
  }
  let scaledDown = false;
  for (const rs of ctx.otherRSs) {
    if ((rs.spec.replicas ?? 0) === 0) continue;
    if (routed && rs.metadata.annotations?.["scale-down-deadline"]) {
      const left = scaleDownDeadline(ctx, rs, 0);
      if (left > 0) {
        ctx.requeueAfter(left);
        continue;
      }
    }
    scaledDown = scaleReplicaSet(ctx, rs, 0) || scaledDown;
  }
  return scaledDown;
}

function completedCurrentCanaryStep(ctx: ReconcileContext): boolean {
  const ro = ctx.ro;
  if (ro.spec.paused) return false;
  const { step, index } = currentStepOf(ro);
  if (!step || index === null) return false;
  return analysisAndPauseCompleted(ctx, step, index);
}

/** Port of `syncRolloutStatusCanary`. */
function syncRolloutStatusCanary(ctx: ReconcileContext, templateChanged: boolean): boolean {
  const ro = ctx.ro;
  const newStatus = calculateBaseStatus(ctx);
  newStatus.availableReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  newStatus.HPAReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
  newStatus.selector = Object.entries(ro.spec.selector?.matchLabels ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  const steps = stepsOf(ro);
  const stepCount = steps.length;
  let { index } = currentStepOf(ro);
  newStatus.stableRS = ro.status?.stableRS;
  newStatus.currentStepHash = computeStepHash(steps);
  if (templateChanged) {
    resetRolloutStatus(ctx, newStatus);
    if (ctx.newRS && ro.status?.stableRS === podHashOf(ctx.newRS) && stepCount > 0) {
      ctx.event("Normal", "SkipSteps", "Rollback to stable ReplicaSets");
      newStatus.currentStepIndex = stepCount;
    }
    return persistRolloutStatus(ctx, calculateRolloutConditions(ctx, newStatus));
  }
  if (ro.status?.promoteFull) {
    ctx.pause.clearPauseConditions();
    ctx.pause.removeAbort();
    if (stepCount > 0) index = stepCount;
  }
  const reason = shouldFullPromoteCanary(ctx);
  if (reason) {
    const previousStable = ctx.stableRS;
    promoteStable(ctx, newStatus, reason);
    if (previousStable && previousStable !== ctx.newRS && ro.spec.strategy.canary?.trafficRouting) {
      scaleDownDeadline(ctx, previousStable, ro.spec.strategy.canary.scaleDownDelaySeconds ?? DEFAULT_SCALE_DOWN_DELAY_SECONDS);
    }
    return persistRolloutStatus(ctx, calculateRolloutConditions(ctx, newStatus));
  }
  if (ctx.pause.isAborted()) {
    if (stepCount > 0) newStatus.currentStepIndex = newStatus.stableRS === newStatus.currentPodHash ? stepCount : 0;
    return persistRolloutStatus(ctx, calculateRolloutConditions(ctx, newStatus));
  }
  if (completedCurrentCanaryStep(ctx) && index !== null) {
    const step = steps[index];
    index++;
    if (newStatus.canary) delete newStatus.canary.currentStepAnalysisRunStatus;
    ctx.event("Normal", Reason.RolloutStepCompleted, Message.stepCompleted(index, stepCount, canaryStepString(step)));
    ctx.pause.removePauseCondition("CanaryPauseStep");
  }
  if (index !== null) newStatus.currentStepIndex = index;
  else delete newStatus.currentStepIndex;
  return persistRolloutStatus(ctx, calculateRolloutConditions(ctx, newStatus));
}

/** `reconcileStableAndCanaryService` (an aborted routed canary's Service goes back to stable in traffic routing). */
function reconcileStableAndCanaryService(ctx: ReconcileContext): void {
  const canary = ctx.ro.spec.strategy.canary;
  ensureSVCTargets(ctx, canary?.stableService, ctx.stableRS, true);
  if (ctx.pause.isAborted() && !canary?.trafficRouting) {
    ensureSVCTargets(ctx, canary?.canaryService, ctx.stableRS, true);
    return;
  }
  ensureSVCTargets(ctx, canary?.canaryService, ctx.newRS, true);
}

/**
 * Port of `rolloutCanary`: ReplicaSets and revision, restarts, services, traffic routing, experiments, analysis,
 * scaling, the pause, then the status. Returns an error string when the reconcile failed before the status sync.
 */
export function rolloutCanary(ctx: ReconcileContext, desiredHash: string): string | null {
  if (podTemplateOrStepsChanged(ctx, desiredHash)) {
    // Upstream creates the desired ReplicaSet before the strategy runs (newRolloutContext), template change or not.
    const err = getAllReplicaSetsAndSyncRevision(ctx, true);
    if (err) return err;
    syncRolloutStatusCanary(ctx, true);
    return null;
  }
  const err = getAllReplicaSetsAndSyncRevision(ctx, true);
  if (err) return err;
  reconcilePodRestart(ctx);
  reconcileRevisionHistoryLimit(ctx);
  reconcileStableAndCanaryService(ctx);
  const trafficErr = reconcileTrafficRouting(ctx);
  if (trafficErr) return trafficErr;
  reconcileExperiments(ctx);
  reconcileStepPlugin(ctx);
  const analysisErr = reconcileAnalysisRuns(ctx);
  if (ctx.pause.hasAddPause()) {
    syncRolloutStatusCanary(ctx, false);
    return null;
  }
  if (analysisErr) return analysisErr;
  if (reconcileCanaryReplicaSets(ctx)) {
    syncRolloutStatusCanary(ctx, false);
    return null;
  }
  reconcileCanaryPause(ctx);
  syncRolloutStatusCanary(ctx, false);
  return null;
}

