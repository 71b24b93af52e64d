import { stepsOf, replicasOf } from "./steps";
import type { ConditionStatus, ConditionType, Rollout, RolloutCondition, RolloutPhase, RolloutSpec, RolloutStatus } from "./types";

/** Reasons and messages from `utils/conditions/conditions.go`, word for word. */
export const Reason = {
  Available: "AvailableReason",
  ReplicaSetUpdated: "ReplicaSetUpdated",
  NewReplicaSetCreated: "NewReplicaSetCreated",
  FoundNewReplicaSet: "FoundNewReplicaSet",
  NewReplicaSetAvailable: "NewReplicaSetAvailable",
  ReplicaSetNotAvailable: "ReplicaSetNotAvailable",
  RolloutUpdated: "RolloutUpdated",
  RolloutCompleted: "RolloutCompleted",
  RolloutNotCompleted: "RolloutNotCompleted",
  RolloutHealthy: "RolloutHealthy",
  RolloutAborted: "RolloutAborted",
  RolloutRetry: "RolloutRetry",
  RolloutPaused: "RolloutPaused",
  RolloutResumed: "RolloutResumed",
  RolloutStepCompleted: "RolloutStepCompleted",
  TrafficWeightUpdated: "TrafficWeightUpdated",
  TimedOut: "ProgressDeadlineExceeded",
  ScalingReplicaSet: "ScalingReplicaSet",
  WeightVerifyError: "WeightVerifyError",
  InvalidSpec: "InvalidSpec",
} as const;

export const Message = {
  available: "Rollout has minimum availability",
  notAvailable: "Rollout does not have minimum availability",
  healthy: "Rollout is healthy",
  notHealthy: "Rollout is not healthy",
  paused: "Rollout is paused",
  resumed: "Rollout is resumed",
  retry: "Retrying Rollout after abort",
  newReplicaSet: (rs: string) => `Created new replica set "${rs}"`,
  newReplicaSetDetailed: (rs: string, revision: number) => `Created ReplicaSet ${rs} (revision ${revision})`,
  foundNewReplicaSet: (rs: string) => `Found new replica set "${rs}"`,
  rolloutUpdated: (revision: number) => `Rollout updated to revision ${revision}`,
  rolloutCompleted: (revision: number, hash: string, reason: string) =>
    `Rollout completed update to revision ${revision} (${hash}): ${reason}`,
  rolloutNotCompleted: (revision: number, hash: string) => `Rollout not completed, started update to revision ${revision} (${hash})`,
  rolloutAborted: (revision: number) => `Rollout aborted update to revision ${revision}`,
  stepCompleted: (index: number, total: number, step: string) => `Rollout step ${index}/${total} completed (${step})`,
  replicaSetProgressing: (rs: string) => `ReplicaSet "${rs}" is progressing.`,
  replicaSetCompleted: (rs: string) => `ReplicaSet "${rs}" has successfully progressed.`,
  replicaSetTimedOut: (rs: string) => `ReplicaSet "${rs}" has timed out progressing.`,
  rolloutProgressing: (name: string) => `Rollout "${name}" is progressing.`,
  scaling: (op: "up" | "down", rs: string, revision: number, from: number, to: number) =>
    `Scaled ${op} ReplicaSet ${rs} (revision ${revision}) from ${from} to ${to}`,
  weightVerifyError: (err: string) => `Failed to verify weight: ${err}`,
} as const;

export function getCondition(status: RolloutStatus, type: ConditionType): RolloutCondition | undefined {
  return status.conditions?.find((c) => c.type === type);
}

export function newCondition(type: ConditionType, status: ConditionStatus, reason: string, message: string, now: string): RolloutCondition {
  return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

/** `SetRolloutCondition`: no-op (false) when status and reason are unchanged; keeps lastTransitionTime when status is. */
export function setCondition(status: RolloutStatus, condition: RolloutCondition): boolean {
  const current = getCondition(status, condition.type);
  if (current && current.status === condition.status && current.reason === condition.reason) return false;
  const next = { ...condition };
  if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
  return true;
}

export function removeCondition(status: RolloutStatus, type: ConditionType): void {
  if (!status.conditions) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
}

function isFullyPromoted(status: RolloutStatus): boolean {
  return status.stableRS === status.currentPodHash;
}

/**
 * `CalculateRolloutPhase` (`utils/rollout/rolloututil.go`): the phase and message the controller writes into
 * status.phase / status.message.
 */
export function calculateRolloutPhase(spec: RolloutSpec, status: RolloutStatus): { phase: RolloutPhase; message: string } {
  for (const cond of status.conditions ?? []) {
    if (cond.type === "InvalidSpec") return { phase: "Degraded", message: `InvalidSpec: ${cond.message}` };
    if (cond.reason === Reason.RolloutAborted || cond.reason === Reason.TimedOut) {
      return { phase: "Degraded", message: `${cond.reason}: ${cond.message}` };
    }
  }
  if (spec.paused) return { phase: "Paused", message: "manually paused" };
  const firstPause = status.pauseConditions?.[0];
  if (firstPause) return { phase: "Paused", message: firstPause.reason };
  if (spec.restartAt && (!status.restartedAt || Date.parse(spec.restartAt) !== Date.parse(status.restartedAt))) {
    return { phase: "Progressing", message: "rollout is restarting" };
  }
  const replicas = spec.replicas ?? 1;
  const updated = status.updatedReplicas ?? 0;
  if (updated < replicas) return { phase: "Progressing", message: "more replicas need to be updated" };
  if ((status.availableReplicas ?? 0) < updated) return { phase: "Progressing", message: "updated replicas are still becoming available" };
  if (spec.strategy.blueGreen) {
    const active = status.blueGreen?.activeSelector;
    if (!active || active !== status.currentPodHash) return { phase: "Progressing", message: "active service cutover pending" };
    if (!status.stableRS || !isFullyPromoted(status)) {
      return { phase: "Progressing", message: "waiting for post-promotion verification to complete" };
    }
  } else if (spec.strategy.canary) {
    if (!spec.strategy.canary.trafficRouting && (status.replicas ?? 0) > updated) {
      return { phase: "Progressing", message: "old replicas are pending termination" };
    }
    if (!status.stableRS || !isFullyPromoted(status)) return { phase: "Progressing", message: "waiting for all steps to complete" };
  }
  return { phase: "Healthy", message: "" };
}

/** `GetRolloutPhase`: what a client shows, honouring observedGeneration and an unpause in flight. */
export function getRolloutPhase(ro: Rollout): { phase: RolloutPhase; message: string } {
  const status = ro.status ?? {};
  const observed = Number(status.observedGeneration);
  if (Number.isFinite(observed) && observed !== ro.metadata.generation && !(observed > (ro.metadata.generation ?? 0))) {
    return { phase: "Progressing", message: "waiting for rollout spec update to be observed" };
  }
  if (status.controllerPause && (status.pauseConditions?.length ?? 0) === 0) {
    return { phase: "Progressing", message: "waiting for rollout to unpause" };
  }
  if (status.phase) return { phase: status.phase, message: status.message ?? "" };
  return calculateRolloutPhase(ro.spec, status);
}

/** `RolloutHealthy` (`utils/conditions`). */
export function rolloutHealthy(ro: Rollout, newStatus: RolloutStatus): boolean {
  const replicas = replicasOf(ro);
  let completedStrategy = true;
  if (ro.spec.strategy.blueGreen) {
    const bg = ro.spec.strategy.blueGreen;
    const activeDone = newStatus.blueGreen?.activeSelector === newStatus.currentPodHash;
    const previewDone = bg.previewService ? newStatus.blueGreen?.previewSelector === newStatus.currentPodHash : true;
    completedStrategy = activeDone && previewDone;
  }
  if (ro.spec.strategy.canary) {
    const stepCount = stepsOf(ro).length;
    const executedAll = stepCount > 0 && newStatus.currentStepIndex !== undefined ? newStatus.currentStepIndex === stepCount : true;
    const currentIsStable = !!newStatus.stableRS && newStatus.stableRS === newStatus.currentPodHash;
    completedStrategy = executedAll && currentIsStable && newStatus.replicas === replicas;
  }
  return (
    newStatus.updatedReplicas === replicas &&
    newStatus.availableReplicas === replicas &&
    ro.status?.observedGeneration === String(ro.metadata.generation) &&
    completedStrategy
  );
}

/** `RolloutProgressing`: did anything move between the stored status and the new one. */
export function rolloutProgressing(ro: Rollout, newStatus: RolloutStatus): boolean {
  const old = ro.status ?? {};
  let strategyProgress = false;
  if (ro.spec.strategy.blueGreen) {
    strategyProgress =
      old.blueGreen?.activeSelector !== newStatus.blueGreen?.activeSelector ||
      old.blueGreen?.previewSelector !== newStatus.blueGreen?.previewSelector;
  }
  if (ro.spec.strategy.canary) {
    const stepMoved =
      newStatus.currentStepIndex !== undefined && old.currentStepIndex !== undefined && newStatus.currentStepIndex !== old.currentStepIndex;
    strategyProgress = newStatus.stableRS !== old.stableRS || stepMoved || newStatus.currentStepHash !== old.currentStepHash;
  }
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (newStatus.replicas ?? 0) - (newStatus.updatedReplicas ?? 0);
  return (
    (newStatus.updatedReplicas ?? 0) !== (old.updatedReplicas ?? 0) ||
    newOld < oldOld ||
    (newStatus.readyReplicas ?? 0) > (old.readyReplicas ?? 0) ||
    (newStatus.availableReplicas ?? 0) > (old.availableReplicas ?? 0) ||
    strategyProgress
  );
}

export type MetricsPhase = "Completed" | "Progressing" | "Paused" | "Timeout" | "Error" | "Abort" | "InvalidSpec";

/** `calculatePhase` (`controller/metrics/rollouts.go`): the rollout_info{phase} label, from the Progressing condition. */
export function calculateMetricsPhase(status: RolloutStatus | undefined): MetricsPhase {
  let phase: MetricsPhase = "Progressing";
  const progressing = status ? getCondition(status, "Progressing") : undefined;
  if (progressing) {
    if (progressing.reason === Reason.NewReplicaSetAvailable) phase = "Completed";
    if (progressing.reason === Reason.RolloutPaused) phase = "Paused";
    if (progressing.reason === "ServiceNotFound" || progressing.reason === "ReplicaSetCreateError") phase = "Error";
    if (progressing.reason === Reason.TimedOut) phase = "Timeout";
    if (progressing.reason === Reason.RolloutAborted) phase = "Abort";
  }
  if (status && getCondition(status, "InvalidSpec")) phase = "InvalidSpec";
  return phase;
}
