import { describe, expect, it } from "vitest";
import type { PauseState } from "@/lib/rollouts/pause";
import { attentionHref, attentionLabel, buildAttentionQueue } from "./attention";
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

  it("orders by severity, then critical ones newest first and the others by how long they have been waiting", () => {
    expect(queue.map((e) => [e.rollout.name, e.severity])).toEqual([
      ["aborted", "critical"],
      ["unreadable", "critical"],
      ["awaiting-longer", "warning"],
      ["awaiting", "warning"],
      ["timed", "info"],
    ]);
  });

  it("shows timed pauses as information that continues on its own, and everything else as something to act on", () => {
    expect(queue.at(-1)?.reasons.map((r) => r.code)).toEqual(["TimedPause"]);
    expect(queue.map((e) => [e.rollout.name, e.action])).toEqual([
      ["aborted", "act"],
      ["unreadable", "act"],
      ["awaiting-longer", "act"],
      ["awaiting", "act"],
      ["timed", "wait"],
    ]);
  });

  it("puts what broke most recently first among critical ones, and a broken plugin among them", () => {
    const older = makeSummary({
      name: "older",
      phase: "Degraded",
      attention: [{ code: "Aborted", message: "" }],
      lastChangedAt: "2026-08-18T08:00:00Z",
    });
    const fresh = makeSummary({
      name: "fresh",
      phase: "Degraded",
      attention: [{ code: "Aborted", message: "" }],
      lastChangedAt: "2026-08-18T09:30:00Z",
    });
    const broken = makeSummary({
      name: "notifications",
      phase: "Progressing",
      attention: [
        {
          code: "PluginNotRegistered",
          message: "hashicorp/consul is not registered",
          href: "/plugins#referenced-not-registered/staging/trafficRouter/hashicorp/consul",
        },
      ],
      lastChangedAt: "2026-08-18T09:00:00Z",
    });
    const names = buildAttentionQueue([awaiting, older, broken, fresh]).map((e) => [e.rollout.name, e.severity]);
    expect(names).toEqual([
      ["fresh", "critical"],
      ["notifications", "critical"],
      ["older", "critical"],
      ["awaiting", "warning"],
    ]);
  });

  it("links each reason to its finding: its own link, else the detail page section", () => {
    expect(attentionHref(aborted, { code: "AnalysisFailed" })).toBe("/rollouts/prod/shop/aborted#analysis-title");
    expect(attentionHref(aborted, { code: "PluginNotRegistered", href: "/plugins#x" })).toBe("/plugins#x");
  });

  it("labels codes it does not know by their name", () => {
    expect(attentionLabel("AwaitingPromotion")).toBe("Awaiting promotion");
    expect(attentionLabel("PluginError")).toBe("PluginError");
  });
});

describe("a Rollout paused by spec.paused", () => {
  it("is queued as needing Resume, not as awaiting promotion", () => {
    expect(attentionLabel("NeedsResume")).toBe("Needs Resume");
  });
});
