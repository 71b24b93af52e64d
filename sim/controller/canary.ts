import { analysisAndPauseCompleted } from "./canary-steps";
import { Message, Reason } from "./conditions";
import { podHashOf, revisionOf, SCALE_DOWN_DEADLINE_ANNOTATION, type ReconcileContext } from "./context";
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
import { checkStableRSExists, desiredCanaryCounts, maxUnavailableOf, totalAvailableReplicas } from "./canary-replicas";
import { availableReplicas, canaryStepString, currentStepOf, replicasOf, specReplicas, stepsOf } from "./steps";
import {
  calculateBaseStatus,
  calculateRolloutConditions,
  persistRolloutStatus,
  promoteStable,
  resetRolloutStatus,
  shouldFullPromoteCanary,
} from "./sync-status";
import { reconcileTrafficRouting } from "./traffic-routing";
import type { ReplicaSet, Rollout } from "./types";

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

/** `reconcileNewReplicaSet`'s target: an aborted routed canary stays up until its abortScaleDownDelaySeconds pass. */
function newReplicaSetTarget(ctx: ReconcileContext, newRS: ReplicaSet, desired: number): number {
  const canary = ctx.ro.spec.strategy.canary;
  if (!ctx.pause.isAborted() || !canary?.trafficRouting || specReplicas(newRS) === 0 || newRS === ctx.stableRS) return desired;
  const delay = canary.abortScaleDownDelaySeconds ?? DEFAULT_ABORT_SCALE_DOWN_DELAY_SECONDS;
  if (delay === 0) return desired;
  const left = scaleDownDeadline(ctx, newRS, delay);
  if (left <= 0) return 0;
  ctx.requeueAfter(left);
  return specReplicas(newRS);
}

/** `cleanupUnhealthyReplicas`: old ReplicaSets with pods that are not available are scaled down to the available ones. */
function cleanupUnhealthyReplicas(ctx: ReconcileContext, oldRSs: ReplicaSet[]): number {
  const byCreation = [...oldRSs].sort(
    (a, b) =>
      Date.parse(a.metadata.creationTimestamp ?? "0") - Date.parse(b.metadata.creationTimestamp ?? "0") ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
  let scaledDown = 0;
  for (const rs of byCreation) {
    const spec = specReplicas(rs);
    if (spec === 0 || spec === availableReplicas(rs)) continue;
    scaleReplicaSet(ctx, rs, availableReplicas(rs));
    scaledDown += spec - availableReplicas(rs);
  }
  return scaledDown;
}

/** A routed canary's old ReplicaSet waits for its scale-down deadline (the sim sets it when the canary is promoted). */
function routedOldReplicaSetTarget(ctx: ReconcileContext, rs: ReplicaSet): number {
  if (!rs.metadata.annotations?.[SCALE_DOWN_DEADLINE_ANNOTATION]) return 0;
  const left = scaleDownDeadline(ctx, rs, 0);
  if (left <= 0) return 0;
  ctx.requeueAfter(left);
  return specReplicas(rs);
}

/**
 * `scaleDownOldReplicaSetsForCanary`: unhealthy pods first, then the newest old ReplicaSets down while more than
 * replicas − maxUnavailable pods stay available (a basic canary's by at most that many, a routed one's to 0 once its
 * deadline passed). Returns the pods scaled down.
 */
function scaleDownOldReplicaSetsForCanary(ctx: ReconcileContext, oldRSs: ReplicaSet[]): number {
  let totalScaledDown = cleanupUnhealthyReplicas(ctx, oldRSs);
  const minAvailable = replicasOf(ctx.ro) - maxUnavailableOf(ctx.ro);
  let maxScaleDown = totalAvailableReplicas(ctx.allRSs) - minAvailable;
  if (maxScaleDown <= 0) return 0;
  const routed = !!ctx.ro.spec.strategy.canary?.trafficRouting;
  const current = ctx.otherRSs.filter((rs) => oldRSs.some((old) => old.metadata.name === rs.metadata.name));
  for (const rs of current.sort((a, b) => revisionOf(b) - revisionOf(a))) {
    if (maxScaleDown <= 0) break;
    const spec = specReplicas(rs);
    if (spec === 0) continue;
    const target = routed ? routedOldReplicaSetTarget(ctx, rs) : Math.max(spec - maxScaleDown, 0);
    if (target === spec) continue;
    scaleReplicaSet(ctx, rs, target);
    maxScaleDown -= spec - target;
    totalScaledDown += spec - target;
  }
  return totalScaledDown;
}

/** `reconcileOtherReplicaSets`: whether any ReplicaSet but the new and the stable one was scaled down. */
function reconcileOtherReplicaSets(ctx: ReconcileContext): boolean {
  const active = ctx.otherRSs.filter((rs) => specReplicas(rs) > 0);
  if (active.length === 0) return false;
  return scaleDownOldReplicaSetsForCanary(ctx, active) > 0;
}

/** `haltProgress`: no scaling while the user paused the Rollout (spec.paused) or an inconclusive analysis did. */
function haltProgress(ro: Rollout): boolean {
  return !!ro.spec.paused || !!getPauseCondition(ro, "InconclusiveAnalysisRun");
}

/** `reconcileCanaryReplicaSets`: scales one ReplicaSet per pass, as upstream does: stable first, then new, then the others. */
function reconcileCanaryReplicaSets(ctx: ReconcileContext): boolean {
  if (haltProgress(ctx.ro)) return false;
  removeScaleDownDeadlines(ctx);
  const desired = desiredCanaryCounts(ctx.ro, ctx.newRS, ctx.stableRS, ctx.otherRSs);
  if (checkStableRSExists(ctx.newRS, ctx.stableRS) && scaleReplicaSet(ctx, ctx.stableRS, desired.stable)) return true;
  if (ctx.newRS && scaleReplicaSet(ctx, ctx.newRS, newReplicaSetTarget(ctx, ctx.newRS, desired.newRS))) return true;
  return reconcileOtherReplicaSets(ctx);
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
