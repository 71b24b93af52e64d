import type { ActionExpectation } from "./schema";

/** The fields of a Rollout an action's expectation is compared with. */
export interface ObservedRolloutState {
  readonly resourceVersion: string | null;
  /** The `rollout.argoproj.io/revision` annotation. */
  readonly revision: string | null;
  /** `status.currentStepIndex`; null when unset. */
  readonly stepIndex: number | null;
}

export const STALE_MESSAGE = "the rollout changed — review and retry";

/**
 * What moved between what the user saw and the Rollout now, e.g. "step 2 → 3"; null when nothing did.
 * Only the fields the request carries are compared.
 */
export function describeStaleness(expected: ActionExpectation, current: ObservedRolloutState): string | null {
  const changes: string[] = [];
  if (expected.revision !== undefined && expected.revision !== (current.revision ?? undefined)) {
    changes.push(`revision ${expected.revision} → ${current.revision ?? "none"}`);
  }
  if (expected.stepIndex !== undefined && expected.stepIndex !== current.stepIndex) {
    const show = (i: number | null) => (i === null ? "none" : String(i + 1));
    changes.push(`step ${show(expected.stepIndex)} → ${show(current.stepIndex)}`);
  }
  if (expected.resourceVersion !== undefined && expected.resourceVersion !== current.resourceVersion) {
    changes.push(`resourceVersion ${expected.resourceVersion} → ${current.resourceVersion ?? "none"}`);
  }
  return changes.length > 0 ? changes.join(", ") : null;
}

/** The observed state of a raw Rollout object (GET response or watch cache). */
export function observeRollout(obj: {
  metadata?: { resourceVersion?: string; annotations?: Record<string, string> | null } | null;
  status?: { currentStepIndex?: number | null } | null;
}): ObservedRolloutState {
  return {
    resourceVersion: obj.metadata?.resourceVersion ?? null,
    revision: obj.metadata?.annotations?.["rollout.argoproj.io/revision"] ?? null,
    stepIndex: obj.status?.currentStepIndex ?? null,
  };
}
