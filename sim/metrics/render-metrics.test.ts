import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { renderMetrics } from "./render-metrics";

describe("renderMetrics", () => {
  it("writes exactly what prom-client writes: counters, collected gauges, histograms, escaped labels and help", async () => {
    const registry = new Registry();
    const registers = [registry];
    const events = new Counter({
      name: "rollout_events_total",
      help: "Count of rollout events",
      labelNames: ["namespace", "name", "reason"],
      registers,
    });
    events.inc({ namespace: "shop", name: "checkout", reason: "TrafficWeightUpdated" }, 3);
    events.inc({ namespace: "shop", name: 'we"ird\\na\nme', reason: "TrafficRoutingError" });
    const phase = new Gauge({
      name: "rollout_phase",
      help: "Information on the state of the rollout\nsecond line with a \\ backslash",
      labelNames: ["namespace", "name", "phase"],
      registers,
      collect() {
        phase.reset();
        phase.set({ namespace: "shop", name: "checkout", phase: "Paused" }, 1);
        phase.set({ namespace: "shop", name: "cart", phase: "Progressing" }, Number.NaN);
      },
    });
    const reconcile = new Histogram({
      name: "rollout_reconcile",
      help: "Rollout reconciliation performance.",
      labelNames: ["namespace", "name"],
      buckets: [0.01, 0.15, 1],
      registers,
    });
    reconcile.observe({ namespace: "shop", name: "checkout" }, 0.12);
    reconcile.observe({ namespace: "shop", name: "checkout" }, 4);
    new Gauge({ name: "build_info", help: "A metric with a constant '1' value", registers }).set(1);
    new Counter({ name: "never_incremented_total", help: "No samples yet", registers });
    new Gauge({ name: "infinite", help: "Infinities", labelNames: ["sign"], registers }).set({ sign: "plus" }, Number.POSITIVE_INFINITY);

    const expected = await registry.metrics();
    expect(await renderMetrics(registry)).toBe(expected);
    // Prometheus-visible content, not only byte equality with a library.
    expect(expected).toContain('rollout_events_total{namespace="shop",name="we\\"ird\\\\na\\nme",reason="TrafficRoutingError"} 1');
    expect(expected).toContain('rollout_reconcile_bucket{le="+Inf",namespace="shop",name="checkout"} 2');
  });

  it("shows what changed since the previous scrape, series kept or not", async () => {
    const registry = new Registry();
    const registers = [registry];
    const events = new Counter({
      name: "rollout_events_total",
      help: "Count of rollout events",
      labelNames: ["namespace", "name", "reason"],
      registers,
    });
    const reconcile = new Histogram({
      name: "rollout_reconcile",
      help: "Rollout reconciliation performance.",
      labelNames: ["namespace", "name"],
      buckets: [0.01, 0.15, 1],
      registers,
    });
    const checkout = { namespace: "shop", name: "checkout" };
    events.inc({ ...checkout, reason: "TrafficWeightUpdated" });
    events.inc({ ...checkout, reason: "RolloutPaused" });
    reconcile.observe(checkout, 0.12);
    reconcile.observe({ namespace: "shop", name: "cart" }, 0.02);
    await renderMetrics(registry);

    events.inc({ ...checkout, reason: "TrafficWeightUpdated" }, 2);
    events.remove({ ...checkout, reason: "RolloutPaused" });
    reconcile.observe(checkout, 0.5);
    const second = await renderMetrics(registry);

    expect(second).toBe(await registry.metrics());
    expect(second).toContain('rollout_events_total{namespace="shop",name="checkout",reason="TrafficWeightUpdated"} 3');
    expect(second).not.toContain("RolloutPaused");
    expect(second).toContain('rollout_reconcile_bucket{le="1",namespace="shop",name="checkout"} 2');
  });
});
