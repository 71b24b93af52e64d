import type { RevisionView, StepTimingView, TimelineMarker, WeightPoint } from "./detail-types";

/** A stored RolloutSample row as the history derivation needs it (weights in units of maxWeight). */
export interface StoredSample {
  at: Date;
  revision: string | null;
  stepIndex: number | null;
  totalSteps: number;
  phase: string;
  message: string | null;
  requestedWeight: number | null;
  canaryWeight: number | null;
  stableWeight: number | null;
  verified: boolean | null;
  maxWeight: number;
  aborted: boolean;
  paused: boolean;
  /** The field manager that wrote this state (the Rollout's last writer when it was recorded); absent in older rows. */
  manager?: string | null;
}

function percent(weight: number | null, max: number): number | null {
  return weight === null ? null : Math.round((weight / (max || 100)) * 10_000) / 100;
}

/** Whether the sample is of a revision past its last step and not aborted: fully promoted, the new stable. */
function isPromotedRevision(s: StoredSample): boolean {
  return !s.aborted && s.stepIndex !== null && s.totalSteps > 0 && s.stepIndex >= s.totalSteps && (s.canaryWeight ?? 0) === 0;
}

/**
 * The samples without the controller's in-between state at the start of a new revision: the Rollout's revision
 * annotation already names the new revision while its status still holds the old one's completed step, so for an
 * instant the new revision reads as fully promoted ("requested 100 %") and then restarts at step 1. Such a sample is
 * recognised by what follows it: the same revision at an earlier step, with no abort in between. A revision that
 * really starts completed (the first deploy, an undo to the stable ReplicaSet) is followed by no earlier step.
 */
export function withoutRevisionStartTransitions<T extends StoredSample>(samples: readonly T[]): T[] {
  return samples.filter((s, i) => {
    const previous = samples[i - 1];
    const next = samples[i + 1];
    const startsRevision = previous !== undefined && previous.revision !== s.revision;
    return !(
      startsRevision &&
      isPromotedRevision(s) &&
      next !== undefined &&
      next.revision === s.revision &&
      !next.aborted &&
      next.stepIndex !== null &&
      next.stepIndex < next.totalSteps
    );
  });
}

export function toWeightPoints(samples: readonly StoredSample[]): WeightPoint[] {
  return samples.map((s) => ({
    at: s.at.toISOString(),
    requested: percent(s.requestedWeight, s.maxWeight),
    // A revision promoted to the end IS the stable one: its share is the stable weight (upstream sets the canary
    // weight back to 0), so the chart does not draw a finished revision as requested 100 % against applied 0 %.
    canary: percent(isPromotedRevision(s) ? s.stableWeight : s.canaryWeight, s.maxWeight),
    stable: percent(s.stableWeight, s.maxWeight),
    verified: s.verified,
    stepIndex: s.stepIndex,
    phase: s.phase,
    revision: s.revision,
  }));
}

/**
 * Markers for the weight chart, from consecutive recorded states: a new revision, a step completed, a pause
 * starting or ending, an abort, a retry, and full promotion. `stepLabels` names steps by index.
 */
export function deriveTimelineMarkers(samples: readonly StoredSample[], stepLabels: readonly string[] = []): TimelineMarker[] {
  const markers: TimelineMarker[] = [];
  let prev: StoredSample | undefined;
  for (const s of samples) {
    const at = s.at.toISOString();
    if (prev) {
      const before = markers.length;
      if (s.revision !== prev.revision && s.revision !== null) {
        markers.push({ at, kind: "revision", label: `Revision ${s.revision} started` });
      } else {
        if (s.aborted && !prev.aborted) markers.push({ at, kind: "abort", label: "Aborted" });
        if (!s.aborted && prev.aborted) markers.push({ at, kind: "resume", label: "Retried" });
        if (!s.aborted && s.stepIndex !== null && prev.stepIndex !== null && s.stepIndex > prev.stepIndex) {
          const fully = s.stepIndex >= s.totalSteps && s.stepIndex - prev.stepIndex > 1;
          if (fully) markers.push({ at, kind: "promote", label: "Promoted to the end" });
          else {
            const label = stepLabels[prev.stepIndex];
            markers.push({ at, kind: "step", label: `Step ${prev.stepIndex + 1}/${s.totalSteps} completed${label ? ` (${label})` : ""}` });
          }
        }
      }
      if (s.paused && !prev.paused) markers.push({ at, kind: "pause", label: s.message ? `Paused (${s.message})` : "Paused" });
      if (!s.paused && prev.paused && !s.aborted) markers.push({ at, kind: "resume", label: "Resumed" });
      const promotedHere = markers.slice(before).some((m) => m.kind === "promote");
      if (
        !promotedHere &&
        s.phase === "Healthy" &&
        prev.phase !== "Healthy" &&
        !s.aborted &&
        s.stepIndex === s.totalSteps &&
        s.totalSteps > 0
      ) {
        markers.push({ at, kind: "promote", label: "Fully promoted" });
      }
    }
    prev = s;
  }
  return markers;
}

/** Revisions seen in the recorded timeline, newest first, with their outcome and the time spent per step. */
export function deriveRevisionHistory(samples: readonly StoredSample[], stepLabels: readonly string[], now: Date): RevisionView[] {
  const groups: StoredSample[][] = [];
  for (const s of samples) {
    const last = groups[groups.length - 1];
    if (last && last[0].revision === s.revision) last.push(s);
    else groups.push([s]);
  }
  return groups
    .map((group, i) => {
      const next = groups[i + 1];
      const end = next ? next[0].at : null;
      const final = group[group.length - 1];
      let outcome: RevisionView["outcome"];
      if (final.aborted) outcome = "aborted";
      else if (final.phase === "Healthy" && (final.totalSteps === 0 || final.stepIndex === final.totalSteps)) outcome = "promoted";
      else outcome = next ? "superseded" : "in-progress";
      const steps: StepTimingView[] = [];
      for (let j = 0; j < group.length; j++) {
        const s = group[j];
        if (s.stepIndex === null || s.stepIndex >= s.totalSteps) continue;
        const current = steps[steps.length - 1];
        if (current && current.index === s.stepIndex && current.leftAt === null) continue;
        if (current && current.leftAt === null) current.leftAt = s.at.toISOString();
        steps.push({
          index: s.stepIndex,
          label: stepLabels[s.stepIndex] ?? `Step ${s.stepIndex + 1}`,
          enteredAt: s.at.toISOString(),
          leftAt: null,
          seconds: 0,
        });
      }
      const open = steps[steps.length - 1];
      if (open && open.leftAt === null) {
        const leftSample = group.find((s) => s.at > new Date(open.enteredAt) && s.stepIndex !== open.index);
        open.leftAt = leftSample ? leftSample.at.toISOString() : end ? end.toISOString() : null;
      }
      for (const step of steps) {
        const left = step.leftAt ? new Date(step.leftAt) : now;
        step.seconds = Math.max(0, Math.round((left.getTime() - new Date(step.enteredAt).getTime()) / 1000));
      }
      return {
        revision: group[0].revision ?? "?",
        startedAt: group[0].at.toISOString(),
        endedAt: end ? end.toISOString() : outcome === "in-progress" ? null : final.at.toISOString(),
        outcome,
        steps,
      };
    })
    .reverse();
}
