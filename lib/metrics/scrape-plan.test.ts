import { describe, expect, it } from "vitest";
import { HEARTBEAT_MS, planSampleRows } from "./scrape-plan";

const sample = (value: number, reason = "TrafficRoutingError") => ({
  metric: "rollout_events_total",
  labels: { namespace: "shop", name: "web", type: "Warning", reason },
  value,
});

describe("planSampleRows", () => {
  it("stores the first value, then only changes and heartbeats", () => {
    const first = planSampleRows([sample(1)], new Map(), 1_000, null);
    expect(first.rows.map((r) => [r.atMs, r.value])).toEqual([[1_000, 1]]);
    const same = planSampleRows([sample(1)], first.next, 16_000, 1_000);
    expect(same.rows).toEqual([]);
    const changed = planSampleRows([sample(3)], same.next, 31_000, 16_000);
    expect(changed.rows.map((r) => [r.atMs, r.value])).toEqual([[31_000, 3]]);
    const heartbeat = planSampleRows([sample(3)], changed.next, 31_000 + HEARTBEAT_MS, 16_000);
    expect(heartbeat.rows.map((r) => r.value)).toEqual([3]);
  });

  it("writes a zero at the previous scrape for a series that appeared since", () => {
    const first = planSampleRows([sample(1)], new Map(), 1_000, null);
    const next = planSampleRows([sample(1), sample(2, "WeightVerifyError")], first.next, 16_000, 1_000);
    expect(next.rows.map((r) => [r.labels.includes("WeightVerifyError"), r.atMs, r.value])).toEqual([
      [true, 1_000, 0],
      [true, 16_000, 2],
    ]);
  });

  it("forgets series that vanished, so a reappearance starts from zero again", () => {
    const first = planSampleRows([sample(5)], new Map(), 1_000, null);
    const gone = planSampleRows([], first.next, 16_000, 1_000);
    expect(gone.next.size).toBe(0);
    const back = planSampleRows([sample(1)], gone.next, 31_000, 16_000);
    expect(back.rows.map((r) => [r.atMs, r.value])).toEqual([
      [16_000, 0],
      [31_000, 1],
    ]);
  });
});
