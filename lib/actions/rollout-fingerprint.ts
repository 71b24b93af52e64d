import type { RolloutResource } from "@/lib/rollouts/schema";

/**
 * The part of a Rollout an action's outcome depends on: what the planner and the availability rules read, the
 * revision, the step, the weight the user was shown and the spec generation. Two resourceVersions with the same
 * fingerprint differ only in things like replica counts or condition timestamps, so an action confirmed against
 * one is still right for the other.
 */
export function fingerprintRollout(rollout: RolloutResource): string {
  const status = rollout.status;
  return JSON.stringify([
    rollout.metadata.generation ?? null,
    rollout.metadata.annotations?.["rollout.argoproj.io/revision"] ?? null,
    rollout.spec?.paused ?? false,
    status?.phase ?? null,
    status?.currentStepIndex ?? null,
    (status?.pauseConditions ?? []).map((c) => c.reason ?? null),
    status?.controllerPause ?? false,
    status?.abort ?? false,
    status?.promoteFull ?? false,
    status?.currentPodHash ?? null,
    status?.stableRS ?? null,
    status?.canary?.currentStepAnalysisRunStatus?.status ?? null,
    status?.canary?.weights?.canary?.weight ?? null,
  ]);
}
