import { describe, expect, it } from "vitest";
import type { PluginHealthView } from "@/lib/plugins/view-types";
import { cellLabel, cellTone, describeBurn, describeBurnBasis, formatRate, successRateState, toSuccessRateRows } from "./health-model";

function view(partial: Partial<PluginHealthView> = {}): PluginHealthView {
  const panel = <T>(data: T | null, error: string | null = null) => ({ signal: "s", error, data });
  return {
    plugin: "argoproj-labs/contour",
    cluster: "prod-eu",
    rolloutCount: 0,
    derived: panel({
      points: [
        { at: "2026-08-18T09:01:00Z", attempts: 10, failures: 3, successes: 7, successRate: 0.7, weightUpdates: 1 },
        { at: "2026-08-18T09:00:00Z", successRate: null, weightUpdates: null },
      ],
      total: null,
      weightUpdates: 1,
    }),
    slo: panel(null),
    failuresByMethod: panel([]),
    latency: panel(null),
    perRpc: panel({
      source: "meter" as const,
      restarts: 0,
      methods: [],
      points: [{ at: "2026-08-18T09:01:00Z", successRate: 0.75, calls: 4 }],
      total: { calls: 4, errors: 1, successRate: 0.75 },
    }),
    verification: panel({ unverified: [] }),
    warnings: panel([]),
    affected: [],
    otherProblems: [],
    ...partial,
  };
}

describe("success-rate chart model", () => {
  it("aligns derived and per-RPC points by timestamp, in time order", () => {
    expect(toSuccessRateRows(view()).map((r) => [r.t, r.derived, r.perRpc])).toEqual([
      [Date.parse("2026-08-18T09:00:00Z"), null, null],
      [Date.parse("2026-08-18T09:01:00Z"), 70, 75],
    ]);
  });

  it("has four states", () => {
    expect(successRateState(undefined, true, null).status).toBe("loading");
    expect(successRateState(view(), false, "boom")).toEqual({ status: "error", message: "boom" });
    expect(successRateState(view({ derived: { signal: "s", error: "Prometheus down", data: null } }), false, null)).toEqual({
      status: "error",
      message: "Prometheus down",
    });
    const idle = view({
      derived: {
        signal: "s",
        error: null,
        data: { points: [{ at: "2026-08-18T09:00:00Z", successRate: null, weightUpdates: null }], total: null, weightUpdates: null },
      },
      perRpc: null,
    });
    expect(successRateState(idle, false, null).status).toBe("empty");
    expect(successRateState(view(), false, null).status).toBe("data");
  });

  it("formats badges and cells", () => {
    expect(describeBurn({ window: "1h", burnRate: 30, errorRate: 0.3, attempts: 10, status: "critical" })).toBe("1h: 30.0× budget");
    expect(describeBurn({ window: "24h", burnRate: null, errorRate: null, attempts: 0, status: "no-data" })).toBe("24h: no data");
    // The badge's title says what the burn is from and how fresh its window is.
    expect(describeBurnBasis({ window: "1h", burnRate: 30, errorRate: 0.3, attempts: 10, status: "critical" })).toBe(
      "error rate 30.0 % over 10 attempts in the last hour (derived; read again at most every minute)",
    );
    expect(describeBurnBasis({ window: "24h", burnRate: 0.5, errorRate: 0.005, attempts: 400, status: "ok" })).toBe(
      "error rate 0.5 % over 400 attempts in the last 24 hours (derived; read again at most every 5 minutes)",
    );
    expect(formatRate(0.7)).toBe("70.0 %");
    expect(formatRate(0.9987)).toBe("99.87 %");
    expect(cellTone({ state: "registered", location: "x", version: "v1", sha256: true, usedBy: 1, critical: 0, warning: 1 })).toBe("amber");
    expect(
      cellLabel({ state: "referenced-not-registered", location: null, version: null, sha256: false, usedBy: 2, critical: 1, warning: 0 }),
    ).toBe("missing");
  });
});
