import { describe, expect, it } from "vitest";
import { deriveAttentionSignals, progressSignature, readProgressDeadlineSeconds, type AttentionSignalsInput } from "./attention-signals";

const NOW = Date.parse("2026-08-18T10:00:00Z");
const minutes = (n: number) => n * 60_000;

/** staging platform/notifications as the real controller shows it: Progressing, 0 replicas, no condition. */
function input(overrides: Partial<AttentionSignalsInput> = {}, view: Partial<AttentionSignalsInput["view"]> = {}): AttentionSignalsInput {
  return {
    view: {
      namespace: "platform",
      name: "notifications",
      phase: "Progressing",
      pause: null,
      aborted: false,
      trafficRouters: [{ kind: "plugin", name: "hashicorp/consul" }],
      pluginSteps: [],
      ...view,
    },
    cluster: "staging",
    registered: { trafficRouter: new Set(["argoproj-labs/gatewayAPI"]), step: new Set() },
    warnings: [],
    lastProgressAt: NOW - minutes(1),
    progressDeadlineSeconds: 600,
    deadlineConditionSet: false,
    noProgressMinutes: 5,
    now: NOW,
    ...overrides,
  };
}

const codes = (i: AttentionSignalsInput) => deriveAttentionSignals(i).map((r) => r.code);

describe("deriveAttentionSignals", () => {
  it("flags a traffic-router plugin its cluster does not register, linked to the plugins page finding, without any condition", () => {
    const [reason] = deriveAttentionSignals(input());
    expect(reason).toMatchObject({
      code: "PluginNotRegistered",
      href: "/plugins#referenced-not-registered/staging/trafficRouter/hashicorp/consul",
    });
    expect(reason.message).toContain("hashicorp/consul");
    expect(codes(input({ registered: { trafficRouter: new Set(["hashicorp/consul"]), step: new Set() } }))).toEqual([]);
  });

  it("flags an unregistered step plugin, and says nothing before argo-rollouts-config was read", () => {
    expect(codes(input({}, { trafficRouters: [], pluginSteps: ["argoproj-labs/sample-step"] }))).toEqual(["PluginNotRegistered"]);
    expect(codes(input({ registered: null }))).toEqual([]);
  });

  it("tells a failing reconcile from recent Warning events, linked to the events, and ignores old or already-told ones", () => {
    const warn = (reason: string, agoMinutes: number) => ({ reason, message: "boom", count: 3, lastAt: NOW - minutes(agoMinutes) });
    const reasons = deriveAttentionSignals(
      input({ registered: null, warnings: [warn("TrafficRoutingError", 1), warn("FailedCreate", 2)] }),
    );
    expect(reasons.map((r) => r.code)).toEqual(["ReconcileFailing", "WarningEvent"]);
    expect(reasons[0]).toMatchObject({
      message: "TrafficRoutingError (×3): boom",
      href: "/rollouts/staging/platform/notifications#events-title",
    });
    expect(codes(input({ registered: null, warnings: [warn("TrafficRoutingError", 30), warn("RolloutAborted", 1)] }))).toEqual([]);
    expect(codes(input({ registered: null, warnings: [warn("TrafficRoutingError", 1)] }, { phase: "Healthy" }))).toEqual([]);
  });

  it("flags no progress after the configured time, then the deadline approaching, then passed when no condition says so", () => {
    const at = (stalled: number, extra: Partial<AttentionSignalsInput> = {}) =>
      codes(input({ registered: null, lastProgressAt: NOW - minutes(stalled), ...extra }));
    expect(at(4)).toEqual([]);
    expect(at(6)).toEqual(["NoProgress"]);
    expect(at(8.5)).toEqual(["ProgressDeadlineApproaching"]);
    expect(at(11)).toEqual(["ProgressDeadlineExceeded"]);
    // The controller's condition already says it (the Rollout view reports it): not twice.
    expect(at(11, { deadlineConditionSet: true })).toEqual([]);
    expect(at(11, { noProgressMinutes: 30, progressDeadlineSeconds: 3600 })).toEqual([]);
  });

  it("does not count waiting as stalling: paused or aborted Rollouts are someone else's reason", () => {
    const stalled = { registered: null, lastProgressAt: NOW - minutes(60) };
    expect(
      codes(
        input(stalled, {
          pause: {
            reason: "CanaryPauseStep",
            startedAt: null,
            durationSeconds: 60,
            endsAt: null,
            remainingSeconds: 30,
            indefinite: false,
            manual: false,
          },
        }),
      ),
    ).toEqual([]);
    expect(codes(input(stalled, { aborted: true }))).toEqual([]);
    expect(codes(input(stalled, { phase: "Paused" }))).toEqual([]);
  });
});

describe("progressSignature and readProgressDeadlineSeconds", () => {
  it("changes with the step or ready replicas, and reads the deadline with upstream's default", () => {
    const view = {
      phase: "Progressing" as const,
      stepProgress: { current: 1, total: 6, index: 0, isComplete: false },
      replicas: { desired: 2, current: 0, updated: 0, ready: 0, available: 0 },
      appliedWeights: null,
      currentPodHash: "abc",
      pause: null,
      aborted: false,
    };
    expect(progressSignature(view)).toBe(progressSignature({ ...view }));
    expect(progressSignature(view)).not.toBe(progressSignature({ ...view, replicas: { ...view.replicas, ready: 1 } }));
    expect(readProgressDeadlineSeconds({ spec: { progressDeadlineSeconds: 120 } })).toBe(120);
    expect(readProgressDeadlineSeconds({ spec: {} })).toBe(600);
  });
});
