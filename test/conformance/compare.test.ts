import { describe, expect, it } from "vitest";
import { attributeEventsToEmission, compareRecordings } from "./compare";
import type { Recording, StepRecord } from "./runner";
import type { Snapshot } from "./snapshot";

const snapshot = (events: string[]): Snapshot => ({
  phase: "Paused",
  message: null,
  currentStepIndex: 1,
  abort: false,
  controllerPause: false,
  pauseReasons: [],
  weights: null,
  conditions: [],
  promoted: false,
  replicas: { desired: 1, updated: 1, ready: 1, available: 1 },
  blueGreen: null,
  events,
  metrics: [],
});
const steps = (...events: string[][]): StepRecord[] => events.map((e, i) => ({ step: `step ${i + 1}`, snapshot: snapshot(e) }));
const recording = (backend: "sim" | "real", records: StepRecord[]): Recording => ({
  scenario: "s",
  backend,
  steps: records,
  wallMs: 0,
});

// Steps started at 10.4 s, 20.7 s, 30.2 s and 40.9 s.
const STARTS = [10_400, 20_700, 30_200, 40_900];

describe("conformance: events count for the step in which the controller emitted them", () => {
  it("moves an event written two steps late back to the step that emitted it", () => {
    const real = steps(["A"], [], [], ["Paused", "Aborted"]);
    const emitted = new Map([
      ["A", 10_000],
      ["Paused", 21_000], // emitted in step 2, written after step 4's snapshot
      ["Aborted", 31_000], // emitted in step 3
    ]);
    expect(attributeEventsToEmission(real, STARTS, emitted).map((s) => s.snapshot.events)).toEqual([["A"], ["Paused"], ["Aborted"], []]);
  });

  it("counts an event of the second a step started for that step (timestamps are whole seconds), never earlier", () => {
    // Emitted at 20.1 s (before step 2 began at 20.7 s) or at 20.9 s: firstTimestamp says 20 s either way.
    const moved = attributeEventsToEmission(steps([], [], ["X"]), [10_400, 20_700, 30_200], new Map([["X", 20_000]]));
    expect(moved.map((s) => s.snapshot.events)).toEqual([[], ["X"], []]);
  });

  it("never moves an event later than the step whose snapshot first showed it, nor one with no known emission time", () => {
    const moved = attributeEventsToEmission(steps(["early"], ["unknown"]), STARTS.slice(0, 2), new Map([["early", 25_000]]));
    expect(moved.map((s) => s.snapshot.events)).toEqual([["early"], ["unknown"]]);
  });

  it("still reports an event the real controller emitted in another step than the simulator", () => {
    const sim = recording("sim", steps(["A"], ["B"], [], []));
    const real = recording(
      "real",
      attributeEventsToEmission(
        steps(["A"], [], [], ["B"]),
        STARTS,
        new Map([
          ["A", 10_000],
          ["B", 40_000],
        ]),
      ),
    );
    expect(compareRecordings(sim, real).map((d) => `${d.step}: ${d.text}`)).toEqual(["2 step 2: events only on sim: B"]);
  });
});
