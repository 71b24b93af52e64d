import { describe, expect, it } from "vitest";
import type { StoredSample } from "@/lib/rollouts/history";
import { activityToCsv, buildActivityTimeline, type ActivityAction, type ActivityEvent } from "./timeline";

const T0 = Date.parse("2026-12-02T10:00:00Z");
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

function sample(minutes: number, patch: Partial<StoredSample> = {}): StoredSample {
  return {
    at: at(minutes),
    revision: "2",
    stepIndex: 1,
    totalSteps: 4,
    phase: "Paused",
    message: "CanaryPauseStep",
    requestedWeight: 20,
    canaryWeight: 20,
    stableWeight: 80,
    verified: null,
    maxWeight: 100,
    aborted: false,
    paused: true,
    ...patch,
  };
}

const shop = { cluster: "prod", namespace: "shop", name: "checkout" };
const ref = { cluster: "prod", namespace: "shop", rollout: "checkout" };

describe("buildActivityTimeline", () => {
  // As the recorder stores a canary that a Rollscope user promoted, then someone aborted with kubectl and the
  // controller reported it (Events as upstream's controller writes them, utils/conditions reasons and messages).
  const rollouts = [
    {
      ...shop,
      samples: [
        sample(-90),
        sample(5, { stepIndex: 2, phase: "Progressing", paused: false, requestedWeight: 40 }),
        sample(6, { stepIndex: 3, phase: "Paused", paused: true, requestedWeight: 40 }),
        sample(20, {
          stepIndex: 3,
          phase: "Degraded",
          aborted: true,
          paused: false,
          canaryWeight: 0,
          stableWeight: 100,
          message: "RolloutAborted",
        }),
      ],
    },
  ];
  const events: ActivityEvent[] = [
    {
      ...ref,
      eventUid: "e1",
      type: "Normal",
      reason: "RolloutStepCompleted",
      message: "Rollout step 2/4 completed (pause)",
      lastAt: at(5),
      source: "rollouts-controller",
    },
    {
      ...ref,
      eventUid: "e2",
      type: "Warning",
      reason: "RolloutAborted",
      message: "Rollout aborted update to revision 2",
      lastAt: at(20),
      source: "rollouts-controller",
    },
    {
      ...ref,
      eventUid: "e3",
      type: "Warning",
      reason: "AnalysisRunFailed",
      message: "Analysis Run 'checkout-2-3' Status New: 'Failed' Previous: 'Running'",
      lastAt: at(19),
      source: "rollouts-controller",
    },
  ];
  const actions: ActivityAction[] = [
    { id: 7, at: at(4.9).toISOString(), user: "alice@example.com", ...ref, action: "promote", message: null },
  ];
  const items = buildActivityTimeline({ rollouts, events, actions, from: at(0), to: at(30) });

  it("lists every change in the window newest first, the state before the window changing nothing by itself", () => {
    expect(items.map((i) => [i.kind, i.summary])).toEqual([
      ["abort", "aborted"],
      ["resume", "unpaused"],
      ["phase", "Paused → Degraded"],
      ["analysis", "AnalysisRunFailed (warning)"],
      ["pause", "paused at step 4 of 4"],
      ["step", "step 3 of 4 → step 4 of 4"],
      ["phase", "Progressing → Paused"],
      ["resume", "unpaused"],
      ["step", "step 2 of 4 → step 3 of 4"],
      ["phase", "Paused → Progressing"],
      ["promote", "promote through Rollscope"],
    ]);
  });

  it("credits a Rollscope user with what their action did, and the Event's source otherwise", () => {
    const step = items.find((i) => i.summary === "step 2 of 4 → step 3 of 4")!;
    expect(step.actor).toEqual({ name: "alice@example.com", via: "rollscope" });
    expect(step.detail).toBe("Rollout step 2/4 completed (pause)");
    const abort = items.find((i) => i.kind === "abort")!;
    expect(abort.actor).toEqual({ name: "rollouts-controller", via: "event" });
    expect(abort.detail).toBe("Rollout aborted update to revision 2");
  });

  it("prefers the field manager recorded with a state over the Event's source", () => {
    const samples = rollouts[0].samples.map((s) => ({ ...s, manager: s.aborted ? "kubectl-argo-rollouts" : "rollouts-controller" }));
    const withManager = buildActivityTimeline({ rollouts: [{ ...shop, samples }], events, actions: [], from: at(0), to: at(30) });
    expect(withManager.find((i) => i.kind === "abort")!.actor).toEqual({ name: "kubectl-argo-rollouts", via: "field-manager" });
    // The controller's own writes are told by the Event that reports them, when there is one.
    expect(withManager.find((i) => i.summary === "step 2 of 4 → step 3 of 4")!.actor).toEqual({
      name: "rollouts-controller",
      via: "event",
    });
  });

  it("gives every change its own id, also two steps stored at the same millisecond", () => {
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    // As the recorder stored a demo Rollout at ×30: two steps, one instant (ids collided and the page, keyed by them,
    // kept stale rows after a filter change).
    const twoSteps = [sample(-90), sample(5, { stepIndex: 2, paused: false }), sample(5, { stepIndex: 3, paused: false })];
    const steps = buildActivityTimeline({ rollouts: [{ ...shop, samples: twoSteps }], events: [], actions: [], from: at(0), to: at(30) });
    expect(steps.filter((i) => i.kind === "step").map((i) => i.summary)).toEqual([
      "step 2 of 4 → step 3 of 4",
      "step 3 of 4 → step 4 of 4",
    ]);
    expect(new Set(steps.map((i) => i.id)).size).toBe(steps.length);
    // Stable across refreshes: the same stored states give the same ids.
    expect(buildActivityTimeline({ rollouts: [{ ...shop, samples: twoSteps }], events: [], actions: [], from: at(0), to: at(30) })).toEqual(
      steps,
    );
  });

  it("leaves out what happened outside the window", () => {
    const late = buildActivityTimeline({ rollouts, events, actions, from: at(10), to: at(30) });
    expect(late.every((i) => Date.parse(i.at) >= at(10).getTime())).toBe(true);
    expect(late.map((i) => i.kind)).toContain("abort");
    expect(late.map((i) => i.kind)).not.toContain("promote");
  });

  it("exports a CSV with one row per change and formula-safe cells", () => {
    const csv = activityToCsv([{ ...items[0], detail: "=HYPERLINK(1)" }]);
    expect(csv.split("\r\n")[0]).toBe("at,cluster,namespace,rollout,kind,summary,actor,actorVia,detail");
    expect(csv).toContain("'=HYPERLINK(1)");
  });
});
