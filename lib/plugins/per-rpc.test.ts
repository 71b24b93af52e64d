import { describe, expect, it } from "vitest";
import type { IncreaseSeries } from "@/lib/metrics/types";
import { buildPerRpcView, describePerRpcSignal, usesPerRpcPromql, type PerRpcData } from "./per-rpc";

const T = [60_000, 120_000];
const calls = (plugin: string, method: string, outcome: string, values: Array<number | null>): IncreaseSeries => ({
  labels: { plugin, method, outcome },
  values,
});
const bucket = (plugin: string, method: string, le: string, values: number[]): IncreaseSeries => ({
  labels: { plugin, method, le },
  values,
});

describe("buildPerRpcView", () => {
  const data: PerRpcData = {
    calls: [
      calls("a/gw", "SetWeight", "success", [6, 2]),
      calls("a/gw", "SetWeight", "error", [2, 0]),
      calls("a/gw", "VerifyWeight", "ok", [4, null]),
      calls("a/gw", "VerifyWeight", "success", [null, null]),
      calls("b/other", "SetWeight", "error", [100, 100]),
    ],
    buckets: [
      bucket("a/gw", "SetWeight", "0.05", [4, 1]),
      bucket("a/gw", "SetWeight", "0.1", [10, 2]),
      bucket("a/gw", "SetWeight", "+Inf", [10, 2]),
    ],
    durationSums: [],
    durationCounts: [],
    restarts: [],
    source: "configured",
    error: null,
    signal: "per-RPC",
  };

  it("counts calls, errors and success rate per method and over the range, for this plugin only", () => {
    const view = buildPerRpcView(data, "a/gw", ["success"], T)!;
    expect(view.total).toEqual({ calls: 14, errors: 6, successRate: 8 / 14 });
    expect(view.methods.map((m) => [m.method, m.calls, m.errors, m.successRate])).toEqual([
      ["SetWeight", 10, 2, 0.8],
      ["VerifyWeight", 4, 4, 0],
    ]);
    expect(view.points).toEqual([
      { at: new Date(60_000).toISOString(), calls: 12, successRate: 0.5 },
      { at: new Date(120_000).toISOString(), calls: 2, successRate: 1 },
    ]);
  });

  it("counts every configured success outcome and reads latency from the method's buckets", () => {
    const view = buildPerRpcView(data, "a/gw", ["success", "ok"], T)!;
    expect(view.methods.find((m) => m.method === "VerifyWeight")!.successRate).toBe(1);
    const setWeight = view.methods.find((m) => m.method === "SetWeight")!;
    expect(setWeight.p50).toBeCloseTo(0.05 + 0.05 * (1 / 7));
    expect(view.methods.find((m) => m.method === "VerifyWeight")!.p50).toBeNull();
  });

  it("is null when the metric has no calls of the plugin", () => {
    expect(buildPerRpcView(data, "c/none", ["success"], T)).toBeNull();
  });
});

describe("per-RPC signal", () => {
  it("uses the PromQL only where Prometheus can run it, and never claims an upstream metric", () => {
    const settings = {
      callsMetric: "plugin_rpc_total",
      durationMetric: "plugin_rpc_seconds",
      successOutcomes: ["success"],
      promql: { calls: "sum(x)" },
    };
    expect(usesPerRpcPromql(settings, true)).toBe(true);
    expect(usesPerRpcPromql(settings, false)).toBe(false);
    expect(describePerRpcSignal(settings, true, "Prometheus p")).toBe(
      "configured per-RPC PromQL (plugins.perRpc.promql) on Prometheus p — not an upstream metric",
    );
    expect(describePerRpcSignal(settings, false, "scrape s")).toBe(
      "plugin_rpc_total / plugin_rpc_seconds (configured per-RPC metric, not upstream) from scrape s",
    );
  });
});

describe("the plugin meter's figures", () => {
  // What Rollscope reads of rollscope-plugin-meter over two steps: 20 SetWeight calls of which 3 failed (2 answered
  // with an error, 1 lost on the wire), 10 VerifyWeight calls all slow (300 ms each), one plugin restart.
  const meter: PerRpcData = {
    calls: [
      calls("acme/router", "SetWeight", "ok", [10, 7]),
      calls("acme/router", "SetWeight", "error", [2, 0]),
      calls("acme/router", "SetWeight", "transport", [0, 1]),
      calls("acme/router", "VerifyWeight", "ok", [5, 5]),
    ],
    buckets: [
      bucket("acme/router", "VerifyWeight", "0.25", [0, 0]),
      bucket("acme/router", "VerifyWeight", "0.5", [5, 5]),
      bucket("acme/router", "VerifyWeight", "+Inf", [5, 5]),
    ],
    durationSums: [{ labels: { plugin: "acme/router", method: "VerifyWeight" }, values: [1.5, 1.5] }],
    durationCounts: [{ labels: { plugin: "acme/router", method: "VerifyWeight" }, values: [5, 5] }],
    restarts: [{ labels: { plugin: "acme/router" }, values: [0, 1] }],
    source: "meter",
    error: null,
    signal: "meter",
  };

  it("counts exactly the failed calls per method, by outcome, with the exact mean latency and the restarts", () => {
    const view = buildPerRpcView(meter, "acme/router", ["ok"], T)!;
    expect(view.source).toBe("meter");
    const setWeight = view.methods.find((m) => m.method === "SetWeight")!;
    expect([setWeight.calls, setWeight.errors]).toEqual([20, 3]);
    expect(setWeight.errorsByOutcome).toEqual([
      { outcome: "error", calls: 2 },
      { outcome: "transport", calls: 1 },
    ]);
    const verify = view.methods.find((m) => m.method === "VerifyWeight")!;
    expect([verify.calls, verify.errors, verify.errorsByOutcome]).toEqual([10, 0, []]);
    expect(verify.mean).toBeCloseTo(0.3);
    expect(verify.p95).toBeGreaterThan(0.25);
    expect(setWeight.mean).toBeNull();
    expect(view.restarts).toBe(1);
  });

  it("says the figures are measured at the plugin boundary when the settings read the meter", () => {
    const settings = {
      callsMetric: "rollscope_plugin_calls_total",
      durationMetric: "rollscope_plugin_call_duration_seconds",
      successOutcomes: ["ok"],
    };
    expect(describePerRpcSignal(settings, false, "Prometheus p")).toMatch(/^MEASURED at the plugin boundary: rollscope_plugin_calls_total/);
    expect(buildPerRpcView({ ...meter, source: "configured" }, "acme/router", ["ok"], T)!.restarts).toBeNull();
  });
});
