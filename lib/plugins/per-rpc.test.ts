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
