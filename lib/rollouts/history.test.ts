import { describe, expect, it } from "vitest";
import {
  deriveRevisionHistory,
  deriveTimelineMarkers,
  toWeightPoints,
  withoutRevisionStartTransitions,
  type StoredSample,
} from "./history";

const t0 = new Date("2026-11-30T10:00:00Z");
function at(seconds: number): Date {
  return new Date(t0.getTime() + seconds * 1000);
}
function sample(seconds: number, patch: Partial<StoredSample>): StoredSample {
  return {
    at: at(seconds),
    revision: "2",
    stepIndex: 0,
    totalSteps: 4,
    phase: "Progressing",
    message: null,
    requestedWeight: 10,
    canaryWeight: 10,
    stableWeight: 90,
    verified: true,
    maxWeight: 100,
    aborted: false,
    paused: false,
    ...patch,
  };
}
const labels = ["Set weight 10%", "Pause (until promoted)", "Set weight 50%", "Pause 5m"];

describe("history", () => {
  it("draws a revision promoted to the end at its real share (it is the stable now), and an aborted one at 0 %", () => {
    const [promoted, aborted] = toWeightPoints([
      sample(0, { stepIndex: 4, phase: "Healthy", requestedWeight: 100, canaryWeight: 0, stableWeight: 100 }),
      sample(10, { stepIndex: 0, aborted: true, phase: "Degraded", requestedWeight: 0, canaryWeight: 0, stableWeight: 100 }),
    ]);
    expect([promoted.requested, promoted.canary, promoted.stable]).toEqual([100, 100, 100]);
    expect([aborted.requested, aborted.canary]).toEqual([0, 0]);
  });

  it("turns weights into percentages of maxTrafficWeight", () => {
    const points = toWeightPoints([sample(0, { canaryWeight: 300, stableWeight: 700, requestedWeight: 300, maxWeight: 1000 })]);
    expect(points[0]).toMatchObject({ requested: 30, canary: 30, stable: 70 });
  });

  it("marks step completions, pauses, aborts and retries in order", () => {
    const samples = [
      sample(0, {}),
      sample(10, { stepIndex: 1, paused: true, phase: "Paused", message: "CanaryPauseStep" }),
      sample(70, { stepIndex: 2, paused: false, requestedWeight: 50, canaryWeight: 50, stableWeight: 50 }),
      sample(80, { aborted: true, stepIndex: 0, phase: "Degraded", requestedWeight: 0, canaryWeight: 0, stableWeight: 100 }),
      sample(90, { aborted: false, stepIndex: 0 }),
    ];
    expect(deriveTimelineMarkers(samples, labels).map((m) => `${m.kind}: ${m.label}`)).toEqual([
      "step: Step 1/4 completed (Set weight 10%)",
      "pause: Paused (CanaryPauseStep)",
      "step: Step 2/4 completed (Pause (until promoted))",
      "resume: Resumed",
      "abort: Aborted",
      "resume: Retried",
    ]);
  });

  it("marks a promote --full jump and a new revision", () => {
    const samples = [
      sample(0, { stepIndex: 1, paused: true }),
      sample(5, { stepIndex: 4, phase: "Healthy", requestedWeight: 100, canaryWeight: 0, stableWeight: 100 }),
      sample(60, { revision: "3", stepIndex: 0 }),
    ];
    const kinds = deriveTimelineMarkers(samples, labels).map((m) => m.kind);
    expect(kinds).toEqual(["promote", "resume", "revision"]);
  });

  it("derives revisions newest first with outcome and time per step", () => {
    const samples = [
      sample(0, { revision: "1", stepIndex: 0 }),
      sample(30, { revision: "1", stepIndex: 1 }),
      sample(90, { revision: "1", stepIndex: 4, phase: "Healthy" }),
      sample(100, { revision: "2", stepIndex: 0 }),
      sample(160, { revision: "2", aborted: true, phase: "Degraded" }),
      sample(200, { revision: "3", stepIndex: 0 }),
      sample(260, { revision: "3", stepIndex: 1, paused: true }),
    ];
    const revisions = deriveRevisionHistory(samples, labels, at(300));
    expect(revisions.map((r) => [r.revision, r.outcome])).toEqual([
      ["3", "in-progress"],
      ["2", "aborted"],
      ["1", "promoted"],
    ]);
    expect(revisions[2].steps.map((s) => [s.index, s.seconds])).toEqual([
      [0, 30],
      [1, 60],
    ]);
    expect(revisions[0].endedAt).toBeNull();
    expect(revisions[0].steps.map((s) => [s.label, s.seconds])).toEqual([
      ["Set weight 10%", 60],
      ["Pause (until promoted)", 40],
    ]);
  });
});

describe("withoutRevisionStartTransitions", () => {
  const done = { stepIndex: 4, requestedWeight: 100, canaryWeight: 0, stableWeight: 100, phase: "Healthy" };

  it("drops the instant a new revision reads as promoted before the controller restarts it at step 1", () => {
    const samples = [
      sample(0, { revision: "1", ...done }),
      sample(60, { revision: "2", ...done }),
      sample(61, { revision: "2", stepIndex: 0, requestedWeight: 10, canaryWeight: 0, stableWeight: 100 }),
      sample(62, { revision: "2", stepIndex: 1, requestedWeight: 10, canaryWeight: 10, stableWeight: 90, phase: "Paused" }),
    ];
    const kept = withoutRevisionStartTransitions(samples);
    expect(kept.map((s) => [s.revision, s.stepIndex])).toStrictEqual([
      ["1", 4],
      ["2", 0],
      ["2", 1],
    ]);
    // The chart then never draws revision 2 at 100 %.
    expect(
      toWeightPoints(kept)
        .filter((p) => p.revision === "2")
        .map((p) => p.canary),
    ).toStrictEqual([0, 10]);
  });

  it("keeps a revision that really starts completed: the first deploy, an undo to the stable ReplicaSet, an abort after", () => {
    const firstDeploy = [sample(0, { revision: "1", ...done }), sample(5, { revision: "1", ...done })];
    expect(withoutRevisionStartTransitions(firstDeploy)).toHaveLength(2);
    const undoToStable = [
      sample(0, { revision: "3", ...done }),
      sample(60, { revision: "4", ...done }),
      sample(61, { revision: "4", ...done }),
    ];
    expect(withoutRevisionStartTransitions(undoToStable)).toHaveLength(3);
    const abortedNext = [
      sample(0, { revision: "1", ...done }),
      sample(60, { revision: "2", ...done }),
      sample(61, { revision: "2", stepIndex: 0, aborted: true }),
    ];
    expect(withoutRevisionStartTransitions(abortedNext)).toHaveLength(3);
  });
});
