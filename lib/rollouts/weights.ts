import { deriveMaxTrafficWeight, toPercent } from "./max-traffic-weight";
import type { RolloutResource } from "./schema";
import { findCurrentStep, listCanarySteps } from "./steps";

/** What the steps ask for: the "requested" weight (not what the router applied, not measured traffic). */
export interface RequestedWeight {
  weight: number;
  maxTrafficWeight: number;
  percent: number;
}

export interface AppliedWeightDestination {
  weight: number;
  percent: number;
  serviceName: string | null;
  podTemplateHash: string | null;
}

/** `status.canary.weights`: what the controller asked the router to set, in maxTrafficWeight units. */
export interface AppliedWeights {
  canary: AppliedWeightDestination;
  stable: AppliedWeightDestination;
  additional: AppliedWeightDestination[];
  /** Tri-state: null when the router does not implement VerifyWeight. */
  verified: boolean | null;
  maxTrafficWeight: number;
  canaryPercent: number;
  stablePercent: number;
}

/**
 * Mirrors `utils/replicaset/canary.go` GetCurrentSetWeight, in maxTrafficWeight units: 0 while aborted; the
 * maximum when there is no current step (no steps, or currentStepIndex ≥ steps.length); otherwise the last
 * setWeight at or before the current step, or 0 if none. An unset currentStepIndex counts as step 0, as upstream.
 * Returns null for non-canary Rollouts.
 */
export function deriveRequestedWeight(rollout: RolloutResource): RequestedWeight | null {
  if (!rollout.spec?.strategy?.canary) return null;
  const maxTrafficWeight = deriveMaxTrafficWeight(rollout);
  const weight = computeSetWeight(rollout, maxTrafficWeight);
  return { weight, maxTrafficWeight, percent: toPercent(weight, maxTrafficWeight) };
}

function computeSetWeight(rollout: RolloutResource, maxTrafficWeight: number): number {
  if (rollout.status?.abort) return 0;
  const current = findCurrentStep(rollout);
  if (current === null) return maxTrafficWeight;
  const steps = listCanarySteps(rollout);
  for (let i = current.index; i >= 0; i--) {
    const setWeight = steps[i].setWeight;
    if (setWeight !== undefined) return setWeight;
  }
  return 0;
}

export function deriveAppliedWeights(rollout: RolloutResource): AppliedWeights | null {
  const weights = rollout.status?.canary?.weights;
  if (!weights) return null;
  const maxTrafficWeight = deriveMaxTrafficWeight(rollout);
  const toDestination = (d: { weight: number; serviceName?: string; podTemplateHash?: string }) => ({
    weight: d.weight,
    percent: toPercent(d.weight, maxTrafficWeight),
    serviceName: d.serviceName ?? null,
    podTemplateHash: d.podTemplateHash ?? null,
  });
  const canary = toDestination(weights.canary);
  const stable = toDestination(weights.stable);
  return {
    canary,
    stable,
    additional: (weights.additional ?? []).map(toDestination),
    verified: weights.verified ?? null,
    maxTrafficWeight,
    canaryPercent: canary.percent,
    stablePercent: stable.percent,
  };
}
