import { describe, expect, it } from "vitest";
import type { PauseState } from "@/lib/rollouts/pause";
import { attentionLabel, buildAttentionQueue } from "./attention";
import { makeSummary } from "./summary.test-helper";

const pause = (overrides: Partial<PauseState>): PauseState => ({
  reason: "CanaryPauseStep",
  startedAt: "2026-08-18T09:00:00Z",
  durationSeconds: null,
  endsAt: null,
  remainingSeconds: null,
  indefinite: true,
  manual: false,
  ...overrides,
});

describe("buildAttentionQueue", () => {
  const healthy = makeSummary({ name: "healthy" });
  const awaiting = makeSummary({
    name: "awaiting",
    phase: "Paused",
    pause: pause({ startedAt: "2026-08-18T09:10:00Z" }),
    attention: [{ code: "AwaitingPromotion", message: "Paused at step 3/8 until promoted" }],
  });
  const awaitingLonger = makeSummary({
    name: "awaiting-longer",
    phase: "Paused",
    pause: pause({ startedAt: "2026-08-18T08:00:00Z" }),
    attention: [{ code: "AwaitingPromotion", message: "Paused at step 3/8 until promoted" }],
  });
  const aborted = makeSummary({ name: "aborted", phase: "Degraded", attention: [{ code: "Aborted", message: "RolloutAborted" }] });
  const timed = makeSummary({
    name: "timed",
    phase: "Paused",
    pause: pause({ indefinite: false, durationSeconds: 300, endsAt: "2026-08-18T09:05:00Z" }),
  });
  const unreadable = makeSummary({ name: "unreadable", parseError: "spec.strategy: expected object" });

  const queue = buildAttentionQueue([healthy, timed, awaiting, aborted, awaitingLonger, unreadable]);

  it("leaves healthy rollouts out", () => {
    expect(queue.map((e) => e.rollout.name)).not.toContain("healthy");
  });

  it("orders by severity, then by how long it has been waiting", () => {
    expect(queue.map((e) => [e.rollout.name, e.severity])).toEqual([
      ["aborted", "critical"],
      ["unreadable", "critical"],
      ["awaiting-longer", "warning"],
      ["awaiting", "warning"],
      ["timed", "info"],
    ]);
  });

  it("shows timed pauses as information", () => {
    expect(queue.at(-1)?.reasons.map((r) => r.code)).toEqual(["TimedPause"]);
  });

  it("labels codes it does not know by their name", () => {
    expect(attentionLabel("AwaitingPromotion")).toBe("Awaiting promotion");
    expect(attentionLabel("PluginError")).toBe("PluginError");
  });
});
