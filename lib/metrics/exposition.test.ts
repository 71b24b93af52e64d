import { describe, expect, it } from "vitest";
import { parseExposition } from "./exposition";

const CONTROLLER_TEXT = `# HELP go_gc_duration_seconds A summary of the pause duration of garbage collection cycles.
# TYPE go_gc_duration_seconds summary
go_gc_duration_seconds{quantile="0"} NaN
go_gc_duration_seconds_sum 0
go_gc_duration_seconds_count 0
# HELP rollout_events_total Count of rollout events
# TYPE rollout_events_total counter
rollout_events_total{name="web",namespace="shop",reason="TrafficWeightUpdated",type="Normal"} 4
rollout_events_total{name="web",namespace="shop",reason="TrafficRoutingError",type="Warning"} 2
# HELP rollout_reconcile Rollout reconciliation performance.
# TYPE rollout_reconcile histogram
rollout_reconcile_bucket{name="web",namespace="shop",le="0.01"} 3
rollout_reconcile_bucket{name="web",namespace="shop",le="0.15"} 5
rollout_reconcile_bucket{name="web",namespace="shop",le="+Inf"} 6
rollout_reconcile_sum{name="web",namespace="shop"} 0.91
rollout_reconcile_count{name="web",namespace="shop"} 6
rollout_reconcile_bucket{name="api",namespace="shop",le="0.01"} 1
rollout_reconcile_bucket{name="api",namespace="shop",le="0.15"} 1
rollout_reconcile_bucket{name="api",namespace="shop",le="+Inf"} 1
rollout_reconcile_sum{name="api",namespace="shop"} 0.002
rollout_reconcile_count{name="api",namespace="shop"} 1
# HELP rollout_reconcile_error Error occurring during the rollout
# TYPE rollout_reconcile_error counter
rollout_reconcile_error{name="web",namespace="shop"} 2
`;

describe("parseExposition", () => {
  it("keeps wanted counters and flattens labelled histograms per series", async () => {
    const samples = await parseExposition(CONTROLLER_TEXT, new Set(["rollout_events_total", "rollout_reconcile", "rollout_reconcile_error"]));
    expect(samples.filter((s) => s.metric === "rollout_events_total")).toEqual([
      { metric: "rollout_events_total", labels: { name: "web", namespace: "shop", reason: "TrafficWeightUpdated", type: "Normal" }, value: 4 },
      { metric: "rollout_events_total", labels: { name: "web", namespace: "shop", reason: "TrafficRoutingError", type: "Warning" }, value: 2 },
    ]);
    const webBuckets = samples.filter((s) => s.metric === "rollout_reconcile_bucket" && s.labels.name === "web");
    expect(webBuckets.map((s) => [s.labels.le, s.value])).toEqual([["0.01", 3], ["0.15", 5], ["+Inf", 6]]);
    expect(samples.find((s) => s.metric === "rollout_reconcile_count" && s.labels.name === "api")?.value).toBe(1);
    expect(samples.find((s) => s.metric === "rollout_reconcile_error")?.value).toBe(2);
  });

  it("ignores families it was not asked for, even ones the parser would reject (NaN)", async () => {
    const samples = await parseExposition(CONTROLLER_TEXT, new Set(["rollout_reconcile_error"]));
    expect(samples).toEqual([{ metric: "rollout_reconcile_error", labels: { name: "web", namespace: "shop" }, value: 2 }]);
  });

  it("unescapes label values", async () => {
    const text = 'x_total{msg="a \\"quoted\\" value"} 1\n';
    const samples = await parseExposition(text, new Set(["x_total"]));
    expect(samples[0].labels.msg).toBe('a "quoted" value');
  });
});
