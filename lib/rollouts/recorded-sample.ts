import type { FleetRollout } from "@/lib/rollouts/view-model";
import type { StoredSample } from "@/lib/rollouts/history";

/** The traffic state of a Rollout the recorder stores; a new row only when `sampleSignature` changes. */
export interface RolloutSampleInput extends StoredSample {
  cluster: string;
  namespace: string;
  name: string;
  resourceVersion: string | null;
}

export function toRolloutSample(r: FleetRollout, at: Date): RolloutSampleInput {
  return {
    cluster: r.cluster,
    namespace: r.namespace ?? "",
    name: r.name,
    at,
    revision: r.revision === null ? null : String(r.revision),
    stepIndex: r.stepProgress.index,
    totalSteps: r.stepProgress.total,
    phase: r.phase,
    message: r.message || null,
    requestedWeight: r.requestedWeight?.weight ?? null,
    canaryWeight: r.appliedWeights?.canary.weight ?? null,
    stableWeight: r.appliedWeights?.stable.weight ?? null,
    verified: r.appliedWeights?.verified ?? null,
    maxWeight: r.maxTrafficWeight,
    aborted: r.aborted,
    paused: r.pause !== null,
    manager: r.lastWriter,
    resourceVersion: r.resourceVersion,
  };
}

/** Requested/applied weight, verified, step, phase, revision, abort and pause: what makes a new timeline point. */
export function sampleSignature(s: Omit<RolloutSampleInput, "at" | "resourceVersion" | "message">): string {
  return [s.revision, s.stepIndex, s.phase, s.requestedWeight, s.canaryWeight, s.stableWeight, s.verified, s.aborted, s.paused].join("|");
}

/** The recorded part of a Rollout's live view: when it changes, the timeline, revisions and events have news too. */
export function recordedSignatureOf(rollout: FleetRollout): string {
  return sampleSignature(toRolloutSample(rollout, new Date(0)));
}
