import type { AuditAfter } from "@/lib/audit/schema";
import { deriveRolloutPhase } from "@/lib/rollouts/phase";
import type { RolloutResource } from "@/lib/rollouts/schema";
import { deriveAppliedWeights, deriveRequestedWeight } from "@/lib/rollouts/weights";

/** What the audit log records of the Rollout an applied action left behind (the PATCH response). */
export function deriveAuditAfter(rollout: RolloutResource): AuditAfter {
  return {
    phase: deriveRolloutPhase(rollout).phase,
    stepIndex: rollout.status?.currentStepIndex ?? null,
    paused: rollout.spec?.paused === true || (rollout.status?.pauseConditions ?? []).length > 0,
    aborted: rollout.status?.abort === true,
    requestedPercent: deriveRequestedWeight(rollout)?.percent ?? null,
    canaryPercent: deriveAppliedWeights(rollout)?.canaryPercent ?? null,
    resourceVersion: rollout.metadata.resourceVersion ?? null,
  };
}
