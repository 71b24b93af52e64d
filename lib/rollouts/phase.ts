import type { AnalysisRunStatusRef, RolloutResource } from "./schema";

const ROLLOUT_PHASES = ["Healthy", "Degraded", "Progressing", "Paused"] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

export interface RolloutPhaseSummary {
  phase: RolloutPhase;
  message: string;
}

const COMPLETED_ANALYSIS_PHASES = new Set(["Successful", "Failed", "Error", "Inconclusive"]);

/**
 * Mirrors `utils/rollout/rolloututil.go` GetRolloutPhase, falling back to CalculateRolloutPhase when the
 * controller has not written `status.phase` (pre-1.0 controllers).
 *
 * One deliberate difference: upstream treats any non-numeric `observedGeneration` (including empty) as observed,
 * for v0.9 hash compatibility. A Rollout with no `observedGeneration` at all has never been reconciled, so we
 * report "waiting for rollout spec update to be observed" instead of guessing from empty replica counts.
 */
export function deriveRolloutPhase(rollout: RolloutResource): RolloutPhaseSummary {
  if (!isGenerationObserved(rollout)) {
    return { phase: "Progressing", message: "waiting for rollout spec update to be observed" };
  }
  if (isUnpausing(rollout)) {
    return { phase: "Progressing", message: "waiting for rollout to unpause" };
  }
  const phase = rollout.status?.phase;
  if (isRolloutPhase(phase)) {
    return { phase, message: rollout.status?.message ?? "" };
  }
  return calculateRolloutPhase(rollout);
}

function isRolloutPhase(value: string | undefined): value is RolloutPhase {
  return (ROLLOUT_PHASES as readonly string[]).includes(value ?? "");
}

function isGenerationObserved(rollout: RolloutResource): boolean {
  const observed = rollout.status?.observedGeneration;
  if (observed === undefined) return false;
  if (!/^-?\d+$/.test(observed)) return true;
  const generation = rollout.metadata.generation ?? 0;
  return Number(observed) >= generation;
}

/** `rolloututil.go` IsUnpausing: the user cleared pauseConditions and the controller has not reacted yet. */
function isUnpausing(rollout: RolloutResource): boolean {
  return rollout.status?.controllerPause === true && (rollout.status.pauseConditions ?? []).length === 0;
}

/** `rolloututil.go` IsFullyPromoted. */
function isFullyPromoted(rollout: RolloutResource): boolean {
  return (rollout.status?.stableRS ?? "") === (rollout.status?.currentPodHash ?? "");
}

/** Port of `utils/rollout/rolloututil.go` CalculateRolloutPhase. */
function calculateRolloutPhase(rollout: RolloutResource): RolloutPhaseSummary {
  const spec = rollout.spec ?? {};
  const status = rollout.status ?? {};

  for (const cond of status.conditions ?? []) {
    if (cond.type === "InvalidSpec") {
      return { phase: "Degraded", message: `InvalidSpec: ${cond.message ?? ""}` };
    }
    if (cond.reason === "RolloutAborted" || cond.reason === "ProgressDeadlineExceeded") {
      return { phase: "Degraded", message: `${cond.reason}: ${cond.message ?? ""}` };
    }
  }
  if (spec.paused) return { phase: "Paused", message: "manually paused" };
  const firstPause = status.pauseConditions?.[0];
  if (firstPause) return { phase: "Paused", message: firstPause.reason };
  if (spec.restartAt && !sameInstant(spec.restartAt, status.restartedAt)) {
    return { phase: "Progressing", message: "rollout is restarting" };
  }
  const updated = status.updatedReplicas ?? 0;
  if (updated < (spec.replicas ?? 1)) {
    return { phase: "Progressing", message: "more replicas need to be updated" };
  }
  if ((status.availableReplicas ?? 0) < updated) {
    return { phase: "Progressing", message: "updated replicas are still becoming available" };
  }
  const stableRS = status.stableRS ?? "";
  const blueGreen = spec.strategy?.blueGreen;
  const canary = spec.strategy?.canary;
  if (blueGreen) {
    const activeSelector = status.blueGreen?.activeSelector ?? "";
    if (activeSelector === "" || activeSelector !== (status.currentPodHash ?? "")) {
      return { phase: "Progressing", message: "active service cutover pending" };
    }
    if (stableRS === "" || !isFullyPromoted(rollout)) {
      const postAnalysisPending =
        blueGreen.postPromotionAnalysis !== undefined && !isAnalysisCompleted(status.blueGreen?.postPromotionAnalysisRunStatus);
      return {
        phase: "Progressing",
        message: postAnalysisPending ? "waiting for analysis to complete" : "waiting for post-promotion verification to complete",
      };
    }
  } else if (canary) {
    // Only basic canary: traffic-routed canaries keep old replicas around for scaleDownDelaySeconds.
    if (!canary.trafficRouting && (status.replicas ?? 0) > updated) {
      return { phase: "Progressing", message: "old replicas are pending termination" };
    }
    if (stableRS === "" || !isFullyPromoted(rollout)) {
      return { phase: "Progressing", message: "waiting for all steps to complete" };
    }
  }
  return { phase: "Healthy", message: "" };
}

function isAnalysisCompleted(ref: AnalysisRunStatusRef | undefined): boolean {
  return ref !== undefined && COMPLETED_ANALYSIS_PHASES.has(ref.status);
}

function sameInstant(a: string, b: string | undefined): boolean {
  return b !== undefined && Date.parse(a) === Date.parse(b);
}
