import {
  calculateRolloutPhase,
  getCondition,
  Message,
  newCondition,
  Reason,
  removeCondition,
  rolloutHealthy,
  rolloutProgressing,
  setCondition,
} from "./conditions";
import { podHashOf, revisionOf, type ReconcileContext } from "./context";
import { deepEqual, withoutUndefined } from "./deep-equal";
import { desiredPodHash } from "./replica-sets";
import { T } from "./resource-types";
import { availableReplicas, currentSetWeight, currentStepOf, replicasOf, stepsOf } from "./steps";
import type { ReplicaSet, Rollout, RolloutStatus } from "./types";

const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

function sum(rss: Array<ReplicaSet | undefined>, pick: (rs: ReplicaSet) => number | undefined): number {
  return rss.reduce((n, rs) => n + (rs ? (pick(rs) ?? 0) : 0), 0);
}

/** `calculateBaseStatus`: counters from the ReplicaSets, the desired pod hash, conditions carried over. */
export function calculateBaseStatus(ctx: ReconcileContext): RolloutStatus {
  const prev = ctx.ro.status ?? {};
  const currentPodHash = ctx.newRS ? podHashOf(ctx.newRS) : desiredPodHash(ctx.ro);
  // Sub-objects are copied one level deep: everything below is replaced, never mutated, by the sync code.
  const status: RolloutStatus = {
    ...ctx.newStatus,
    canary: { ...(ctx.newStatus.canary ?? {}) },
    blueGreen: { ...(ctx.newStatus.blueGreen ?? {}) },
    currentPodHash,
    replicas: sum(ctx.allRSs, (rs) => rs.status?.replicas),
    updatedReplicas: ctx.newRS?.status?.replicas ?? 0,
    readyReplicas: sum(ctx.allRSs, (rs) => rs.status?.readyReplicas),
    conditions: [...(prev.conditions ?? [])],
  };
  if (prev.collisionCount !== undefined) status.collisionCount = prev.collisionCount;
  if (currentPodHash !== prev.stableRS && prev.promoteFull) status.promoteFull = true;
  return status;
}

function isIndefiniteStep(ro: Rollout): boolean {
  const { step } = currentStepOf(ro);
  return !!step && (!!step.experiment || !!step.analysis || !!step.pause);
}

/** `RolloutTimedOut`, in simulated time. */
function rolloutTimedOut(ctx: ReconcileContext, newStatus: RolloutStatus): boolean {
  const cond = getCondition(newStatus, "Progressing");
  if (!cond || cond.reason === Reason.NewReplicaSetAvailable) return false;
  if (cond.reason === Reason.TimedOut) return true;
  const deadline = ctx.ro.spec.progressDeadlineSeconds ?? DEFAULT_PROGRESS_DEADLINE_SECONDS;
  const elapsed = ctx.elapsedSince("progress", cond.lastUpdateTime);
  if (elapsed > deadline) return true;
  ctx.requeueAfter(deadline - elapsed + 1);
  return false;
}

/** Port of `calculateRolloutConditions` (`rollout/sync.go`). */
export function calculateRolloutConditions(ctx: ReconcileContext, newStatus: RolloutStatus): RolloutStatus {
  const ro = ctx.ro;
  const now = ctx.now;
  const isPaused = (ro.status?.pauseConditions?.length ?? 0) > 0 || !!ro.spec.paused;
  const isAborted = ctx.pause.isAborted();
  let becameUnhealthy = false;
  const healthyCond = getCondition(ro.status ?? {}, "Healthy");
  if (!isPaused && rolloutHealthy(ro, newStatus)) {
    setCondition(newStatus, newCondition("Healthy", "True", Reason.RolloutHealthy, Message.healthy, now));
  } else if (healthyCond) {
    becameUnhealthy = setCondition(newStatus, newCondition("Healthy", "False", Reason.RolloutHealthy, Message.notHealthy, now));
  }
  if (isAborted) {
    let message = Message.rolloutAborted(revisionOf(ro));
    if (ctx.pause.abortMessage) message = `${message}: ${ctx.pause.abortMessage}`;
    if (setCondition(newStatus, newCondition("Progressing", "False", Reason.RolloutAborted, message, now))) {
      ctx.event("Warning", Reason.RolloutAborted, message);
    }
  }
  const currentCond = getCondition(ro.status ?? {}, "Progressing");
  const newRSName = ctx.newRS?.metadata.name;
  if (!isAborted) {
    if (rolloutHealthy(ro, newStatus)) {
      setCondition(
        newStatus,
        newCondition("Progressing", "True", Reason.NewReplicaSetAvailable, Message.replicaSetCompleted(newRSName ?? ""), now),
      );
    } else if (rolloutProgressing(ro, newStatus) || becameUnhealthy) {
      const reason =
        newStatus.stableRS === newStatus.currentPodHash && becameUnhealthy ? Reason.ReplicaSetNotAvailable : Reason.ReplicaSetUpdated;
      const message =
        reason === Reason.ReplicaSetNotAvailable
          ? Message.notAvailable
          : newRSName
            ? Message.replicaSetProgressing(newRSName)
            : Message.rolloutProgressing(ro.metadata.name);
      const condition = newCondition("Progressing", "True", reason, message, now);
      if (currentCond?.status === "True") condition.lastTransitionTime = currentCond.lastTransitionTime;
      removeCondition(newStatus, "Progressing");
      setCondition(newStatus, condition);
      ctx.rememberPrecise("progress", now);
    } else if (!isIndefiniteStep(ro) && !isPaused && rolloutTimedOut(ctx, newStatus)) {
      const message = newRSName ? Message.replicaSetTimedOut(newRSName) : `Rollout "${ro.metadata.name}" has timed out progressing.`;
      const changed = setCondition(newStatus, newCondition("Progressing", "False", Reason.TimedOut, message, now));
      if (ro.spec.progressDeadlineAbort && (changed || !ctx.pause.isAborted())) {
        ctx.pause.addAbort(message);
        ctx.event("Warning", Reason.RolloutAborted, message);
      }
    }
  }
  const replicas = replicasOf(ro);
  const available = ro.spec.strategy.blueGreen
    ? (ctx.allRSs.find((rs) => podHashOf(rs) === newStatus.blueGreen?.activeSelector)?.status?.availableReplicas ?? 0) >= replicas
    : sum(ctx.allRSs, (rs) => rs.status?.availableReplicas) >= replicas;
  setCondition(
    newStatus,
    available
      ? newCondition("Available", "True", Reason.Available, Message.available, now)
      : newCondition("Available", "False", Reason.Available, Message.notAvailable, now),
  );
  if (newStatus.stableRS && newStatus.stableRS === newStatus.currentPodHash) {
    setCondition(newStatus, newCondition("Completed", "True", Reason.RolloutCompleted, Reason.RolloutCompleted, now));
  } else if (setCondition(newStatus, newCondition("Completed", "False", Reason.RolloutCompleted, Reason.RolloutCompleted, now))) {
    // Upstream reads the Rollout's revision after syncing it to the new ReplicaSet's (a reused one keeps its own).
    const revision = ctx.newRS ? revisionOf(ctx.newRS) : revisionOf(ro) + 1;
    ctx.event("Normal", Reason.RolloutNotCompleted, Message.rolloutNotCompleted(revision, newStatus.currentPodHash ?? ""));
  }
  return newStatus;
}

/** `sendStateChangeEvents`: RolloutPaused / RolloutResumed when pause conditions appear or disappear. */
function sendStateChangeEvents(ctx: ReconcileContext, prev: RolloutStatus, next: RolloutStatus): void {
  const prevPaused = (prev.pauseConditions?.length ?? 0) > 0;
  const currPaused = (next.pauseConditions?.length ?? 0) > 0;
  if (prevPaused === currPaused) return;
  if (currPaused) ctx.event("Normal", Reason.RolloutPaused, `${Message.paused} (${next.pauseConditions?.[0].reason})`);
  else if (!next.abortedAt) ctx.event("Normal", Reason.RolloutResumed, Message.resumed);
}

/** Drops empty values the Go types omit (omitempty) so stored status looks like the real controller's. */
function prune(status: RolloutStatus): RolloutStatus {
  const out = withoutUndefined(status) as RolloutStatus & Record<string, unknown>;
  for (const key of ["message", "stableRS", "restartedAt", "selector"] as const) if (out[key] === "") delete out[key];
  // The counters are `omitempty` int32s upstream: a zero is not written.
  for (const key of ["replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "HPAReplicas"] as const)
    if (out[key] === 0) delete out[key];
  if (!out.abort) delete out.abort;
  if (!out.promoteFull) delete out.promoteFull;
  if (!out.controllerPause) delete out.controllerPause;
  if (out.pauseConditions && out.pauseConditions.length === 0) delete out.pauseConditions;
  if (out.canary?.stepPluginStatuses?.length === 0) delete out.canary.stepPluginStatuses;
  return out;
}

/** Writes a status with phase/message and observedGeneration; records the transition; false when nothing changed. */
export function writeStatus(ctx: ReconcileContext, newStatus: RolloutStatus): boolean {
  const ro = ctx.ro;
  newStatus.observedGeneration = String(ro.metadata.generation ?? 1);
  const { phase, message } = calculateRolloutPhase(ro.spec, newStatus);
  newStatus.phase = phase;
  newStatus.message = message;
  const next = prune(newStatus);
  const prev = ro.status ?? {};
  if (deepEqual(prev, next)) return false;
  for (const cond of next.pauseConditions ?? []) ctx.rememberPrecise(`pause:${cond.reason}`, cond.startTime);
  const written = ctx.deps.client.update(
    T.rollouts,
    ro.metadata.namespace,
    ro.metadata.name,
    (draft) => {
      draft.status = next;
    },
    { subresource: "status", verb: "Patch" },
  ) as Rollout;
  ctx.ro = written;
  sendStateChangeEvents(ctx, prev, next);
  recordTransition(ctx, written);
  return true;
}

function recordTransition(ctx: ReconcileContext, ro: Rollout): void {
  const status = ro.status ?? {};
  const weights = status.canary?.weights;
  const routed = !!ro.spec.strategy.canary?.trafficRouting;
  ctx.deps.transitions.observe({
    at: new Date(ctx.deps.clock.now()).toISOString(),
    cluster: ctx.deps.clusterName,
    namespace: ro.metadata.namespace ?? "",
    name: ro.metadata.name,
    revision: revisionOf(ro),
    stepIndex: status.currentStepIndex ?? null,
    phase: status.phase ?? "",
    ...(routed ? { requestedWeight: currentSetWeight(ro) } : {}),
    canaryWeight: weights?.canary.weight ?? null,
    stableWeight: weights?.stable.weight ?? null,
    verified: weights?.verified ?? null,
    resourceVersion: ro.metadata.resourceVersion ?? "",
  });
}

/** `persistRolloutStatus`: pause/abort bookkeeping, then the write. */
export function persistRolloutStatus(ctx: ReconcileContext, newStatus: RolloutStatus): boolean {
  if (!newStatus.pauseConditions) delete newStatus.controllerPause;
  ctx.pause.calculatePauseStatus(newStatus);
  return writeStatus(ctx, newStatus);
}

/**
 * `checkPausedConditions`: keeps the Progressing (Unknown RolloutPaused/RolloutResumed/RolloutRetry) and Paused
 * conditions in line with spec.paused and pauseConditions, in its own status patch before the main reconcile.
 */
export function checkPausedConditions(ctx: ReconcileContext): void {
  const ro = ctx.ro;
  const status = ro.status ?? {};
  const progCond = getCondition(status, "Progressing");
  const progCondPaused = progCond?.reason === Reason.RolloutPaused;
  const isPaused = (status.pauseConditions?.length ?? 0) > 0 || !!ro.spec.paused;
  const abortCondExists = progCond?.reason === Reason.RolloutAborted;
  const now = ctx.now;
  const updates = [];
  if (isPaused !== progCondPaused && !abortCondExists) {
    updates.push(
      isPaused
        ? newCondition("Progressing", "Unknown", Reason.RolloutPaused, Message.paused, now)
        : newCondition("Progressing", "Unknown", Reason.RolloutResumed, Message.resumed, now),
    );
  }
  if (!status.abort && abortCondExists) updates.push(newCondition("Progressing", "Unknown", Reason.RolloutRetry, Message.retry, now));
  const pausedCond = getCondition(status, "Paused");
  const pausedCondTrue = pausedCond?.status === "True";
  if (isPaused !== pausedCondTrue && !abortCondExists) {
    updates.push(newCondition("Paused", isPaused ? "True" : "False", Reason.RolloutPaused, Message.paused, now));
  }
  if (updates.length === 0) return;
  const next: RolloutStatus = { ...status, conditions: [...(status.conditions ?? [])] };
  for (const cond of updates) setCondition(next, cond);
  if (updates.some((c) => c.type === "Progressing")) ctx.rememberPrecise("progress", now);
  writeStatus(ctx, next);
}

/** `resetRolloutStatus`: a new template or steps start the update from the beginning. */
export function resetRolloutStatus(ctx: ReconcileContext, newStatus: RolloutStatus): void {
  ctx.pause.clearPauseConditions();
  ctx.pause.removeAbort();
  setRestartedAt(ctx, newStatus);
  delete newStatus.promoteFull;
  newStatus.blueGreen = {};
  if (newStatus.canary) {
    delete newStatus.canary.currentStepAnalysisRunStatus;
    delete newStatus.canary.currentBackgroundAnalysisRunStatus;
    delete newStatus.canary.stepPluginStatuses;
  }
  if (stepsOf(ctx.ro).length > 0) newStatus.currentStepIndex = 0;
  else delete newStatus.currentStepIndex;
}

function setRestartedAt(ctx: ReconcileContext, newStatus: RolloutStatus): void {
  const restartAt = ctx.ro.spec.restartAt;
  if (restartAt && Date.parse(restartAt) <= ctx.deps.clock.now()) newStatus.restartedAt = restartAt;
}

/** `shouldFullPromote` for canary. */
export function shouldFullPromoteCanary(ctx: ReconcileContext): string {
  if (!ctx.stableRS) return "Initial deploy";
  if (ctx.pause.isAborted()) return "";
  if (!ctx.newRS || availableReplicas(ctx.newRS) !== replicasOf(ctx.ro)) return "";
  if (ctx.ro.status?.promoteFull) return "Full promotion requested";
  const stepCount = stepsOf(ctx.ro).length;
  const index = ctx.ro.status?.currentStepIndex;
  if (stepCount === 0 || index === stepCount) return `Completed all ${stepCount} canary steps`;
  return "";
}

/** `promoteStable`: the desired ReplicaSet becomes stable; RolloutCompleted is emitted when stable changes. */
export function promoteStable(ctx: ReconcileContext, newStatus: RolloutStatus, reason: string): void {
  ctx.pause.clearPauseConditions();
  ctx.pause.removeAbort();
  delete newStatus.promoteFull;
  if (newStatus.blueGreen) delete newStatus.blueGreen.scaleUpPreviewCheckPoint;
  if (ctx.ro.spec.strategy.canary) {
    const stepCount = stepsOf(ctx.ro).length;
    if (stepCount > 0) newStatus.currentStepIndex = stepCount;
    else delete newStatus.currentStepIndex;
  }
  if (newStatus.stableRS !== newStatus.currentPodHash) {
    newStatus.stableRS = newStatus.currentPodHash;
    // The new ReplicaSet's revision: on a first pass the Rollout's own annotation is not written yet.
    const revision = ctx.newRS ? revisionOf(ctx.newRS) : revisionOf(ctx.ro);
    ctx.event("Normal", Reason.RolloutCompleted, Message.rolloutCompleted(revision, newStatus.currentPodHash ?? "", reason));
  }
}
