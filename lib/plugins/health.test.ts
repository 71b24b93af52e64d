import { describe, expect, it } from "vitest";
import {
  countFailuresByMethod,
  deriveBurnRate,
  deriveCallOutcome,
  deriveCallOutcomeSeries,
  deriveCallOutcomeTotal,
  deriveUnverifiedSince,
} from "./health";

describe("deriveCallOutcome", () => {
  it("counts a failed SetWeight once although it writes an event and fails the reconcile", () => {
    expect(deriveCallOutcome({ weightUpdates: 2, routingErrors: 3, verifyErrors: 0, reconcileErrors: 3, reconciles: 10 })).toEqual({
      attempts: 10,
      failures: 3,
      successes: 7,
      successRate: 0.7,
    });
  });

  it("adds verify errors and silent reconcile errors; attempts never fall below updates + failures", () => {
    expect(deriveCallOutcome({ weightUpdates: 4, routingErrors: 1, verifyErrors: 2, reconcileErrors: 3, reconciles: null })).toEqual({
      attempts: 9,
      failures: 5,
      successes: 4,
      successRate: 4 / 9,
    });
  });

  it("is null without data and has no rate without attempts", () => {
    expect(
      deriveCallOutcome({ weightUpdates: null, routingErrors: null, verifyErrors: null, reconcileErrors: null, reconciles: null }),
    ).toBeNull();
    expect(
      deriveCallOutcome({ weightUpdates: 0, routingErrors: 0, verifyErrors: 0, reconcileErrors: 0, reconciles: 0 })?.successRate,
    ).toBeNull();
  });

  it("derives per point and over the range", () => {
    const signals = {
      weightUpdates: [1, null],
      routingErrors: [0, 2],
      verifyErrors: [0, 0],
      reconcileErrors: [0, 2],
      reconciles: [5, 5],
    };
    expect(deriveCallOutcomeSeries(signals).map((o) => o?.successRate)).toEqual([1, 0.6]);
    expect(deriveCallOutcomeTotal(signals)).toMatchObject({ attempts: 10, failures: 2, successRate: 0.8 });
  });
});

describe("deriveBurnRate", () => {
  it("compares the error rate with the budget and grades it by window", () => {
    const outcome = { attempts: 1000, failures: 20, successes: 980, successRate: 0.98 };
    expect(deriveBurnRate("1h", outcome, 0.99)).toMatchObject({ burnRate: expect.closeTo(2, 5), status: "warning" });
    expect(deriveBurnRate("24h", outcome, 0.99).status).toBe("warning");
    expect(deriveBurnRate("24h", { ...outcome, failures: 40 }, 0.99).status).toBe("critical");
    expect(deriveBurnRate("1h", { ...outcome, failures: 5 }, 0.99).status).toBe("ok");
    expect(deriveBurnRate("1h", null, 0.99).status).toBe("no-data");
  });
});

describe("countFailuresByMethod", () => {
  it("classifies event messages and reports reconcile errors without an event", () => {
    const event = (reason: string, message: string, count = 1) => ({
      namespace: "shop",
      rollout: "web",
      reason,
      message,
      count,
      lastAt: "2026-08-18T09:00:00Z",
    });
    const counts = countFailuresByMethod(
      [
        event("TrafficRoutingError", "failed to set weight via plugin: Contour: the server rejected our request", 3),
        event("WeightVerifyError", "Failed to verify weight: failed to verify weight via plugin: rpc error"),
        event("AnalysisRunFailed", "Analysis Run failed"),
      ],
      5,
      3,
    );
    expect(counts.map((c) => [c.method, c.failures])).toEqual([
      ["SetWeight", 3],
      ["VerifyWeight", 1],
      ["NoEvent", 2],
    ]);
  });

  it("adds TrafficRoutingErrors the counter saw but the spam filter kept from the Events API to SetWeight", () => {
    const event = (reason: string, message: string, count = 1) => ({
      namespace: "shop",
      rollout: "web",
      reason,
      message,
      count,
      lastAt: "2026-08-18T09:00:00Z",
    });
    const kept = countFailuresByMethod([event("TrafficRoutingError", "failed to set weight via plugin: Contour: conflict", 2)], 9, 7.4);
    expect(kept.map((c) => [c.method, c.failures])).toEqual([
      ["SetWeight", 7],
      ["NoEvent", 2],
    ]);
    expect(kept[0].signal).toMatch(/spam filter/);
    // Every event dropped: the counter alone still names the method.
    const none = countFailuresByMethod(
      [event("WeightVerifyError", "Failed to verify weight: failed to verify weight via plugin: rpc error")],
      4,
      4,
    );
    expect(none.map((c) => [c.method, c.failures])).toEqual([
      ["SetWeight", 4],
      ["VerifyWeight", 1],
    ]);
    // More kept events than the counter's increase in the window (an older event's count): nothing is added.
    expect(
      countFailuresByMethod([event("TrafficRoutingError", "failed to set weight via plugin: x", 5)], 2, 2).map((c) => c.failures),
    ).toEqual([5]);
  });
});

describe("deriveUnverifiedSince", () => {
  it("returns the start of the current unverified run", () => {
    expect(
      deriveUnverifiedSince([
        { atMs: 1, verified: false },
        { atMs: 2, verified: true },
        { atMs: 3, verified: false },
        { atMs: 4, verified: false },
      ]),
    ).toBe(3);
    expect(deriveUnverifiedSince([{ atMs: 1, verified: null }])).toBeNull();
  });
});
