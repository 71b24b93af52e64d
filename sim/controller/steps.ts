import { durationSeconds, formatGoDuration } from "./duration";
import type { CanaryStep, ReplicaSet, Rollout } from "./types";

/** Pure ports of `utils/replicaset/canary.go` and `utils/rollout/rolloututil.go` step helpers (the replica counts: canary-replicas.ts). */

const DEFAULT_MAX_TRAFFIC_WEIGHT = 100;

export function replicasOf(ro: Rollout): number {
  return ro.spec.replicas ?? 1;
}

export function stepsOf(ro: Rollout): CanaryStep[] {
  return ro.spec.strategy.canary?.steps ?? [];
}

/** `weightutil.MaxTrafficWeight`: weights are in units of trafficRouting.maxTrafficWeight (default 100). */
export function maxTrafficWeight(ro: Rollout): number {
  return ro.spec.strategy.canary?.trafficRouting?.maxTrafficWeight ?? DEFAULT_MAX_TRAFFIC_WEIGHT;
}

export interface CurrentStep {
  step: CanaryStep | null;
  /** null when there are no steps. */
  index: number | null;
}

/** `GetCurrentCanaryStep`: no current step when there are no steps or all have run (index == len). */
export function currentStepOf(ro: Rollout, indexOverride?: number): CurrentStep {
  const steps = stepsOf(ro);
  if (steps.length === 0) return { step: null, index: null };
  const index = indexOverride ?? ro.status?.currentStepIndex ?? 0;
  if (index >= steps.length) return { step: null, index };
  return { step: steps[index], index };
}

/** `GetCurrentSetWeight`: 0 when aborted, max when no step remains, else the last setWeight at or before the step. */
export function currentSetWeight(ro: Rollout): number {
  if (ro.status?.abort) return 0;
  const { step, index } = currentStepOf(ro);
  if (!step || index === null) return maxTrafficWeight(ro);
  const steps = stepsOf(ro);
  for (let i = index; i >= 0; i--) {
    const weight = steps[i].setWeight;
    if (weight !== undefined) return weight;
  }
  return 0;
}

/** The setWeight of the last step before `index` (what the router keeps while the canary is not yet scaled). */
export function previousSetWeight(ro: Rollout, index: number): number {
  const steps = stepsOf(ro);
  for (let i = Math.min(index, steps.length) - 1; i >= 0; i--) {
    const weight = steps[i].setWeight;
    if (weight !== undefined) return weight;
  }
  return 0;
}

/** `rolloututil.CanaryStepString`, used in "Rollout step 4/8 completed (setWeight: 30)". */
export function canaryStepString(step: CanaryStep): string {
  if (step.setWeight !== undefined) return `setWeight: ${step.setWeight}`;
  if (step.pause) {
    const seconds = durationSeconds(step.pause.duration);
    return seconds === null ? "pause" : `pause: ${formatGoDuration(seconds)}`;
  }
  if (step.experiment) return "experiment";
  if (step.analysis) return "analysis";
  if (step.setCanaryScale) {
    const scs = step.setCanaryScale;
    if (scs.weight !== undefined) return `setCanaryScale{weight: ${scs.weight}}`;
    if (scs.matchTrafficWeight) return "setCanaryScale{matchTrafficWeight: true}";
    if (scs.replicas !== undefined) return `setCanaryScale{replicas: ${scs.replicas}}`;
  }
  return "invalid";
}

/**
 * `UseSetCanaryScale`: the last setCanaryScale at or before the current step (traffic routing only); ignored once
 * aborted unless `abortScaleDownDelaySeconds: 0` leaves the canary up.
 */
export function activeSetCanaryScale(ro: Rollout): CanaryStep["setCanaryScale"] | null {
  const canary = ro.spec.strategy.canary;
  if (!canary?.trafficRouting) return null;
  if (ro.status?.abort && canary.abortScaleDownDelaySeconds !== 0) return null;
  const { step, index } = currentStepOf(ro);
  if (!step || index === null) return null;
  const steps = stepsOf(ro);
  for (let i = index; i >= 0; i--) {
    const scs = steps[i].setCanaryScale;
    if (scs) return scs.matchTrafficWeight ? null : scs;
  }
  return null;
}

export function specReplicas(rs: ReplicaSet | undefined): number {
  return rs?.spec.replicas ?? 0;
}

export function availableReplicas(rs: ReplicaSet | undefined): number {
  return rs?.status?.availableReplicas ?? 0;
}

/** `BeforeStartingStep`: background analysis waits for `analysis.startingStep`. */
export function beforeStartingStep(ro: Rollout): boolean {
  const startingStep = ro.spec.strategy.canary?.analysis?.startingStep;
  if (startingStep === undefined) return false;
  const { index } = currentStepOf(ro);
  return index === null || index < startingStep;
}
