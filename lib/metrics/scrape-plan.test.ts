import { describe, expect, it } from "vitest";
import { EMPTY_SERIES_MEMORY, HEARTBEAT_MS, planSampleRows, seriesDigest } from "./scrape-plan";

const sample = (value: number, reason = "TrafficRoutingError", name = "web") => ({
  metric: "rollout_events_total",
  series: `rollout_events_total{name="${name}",namespace="shop",reason="${reason}",type="Warning"}`,
  value,
});

describe("planSampleRows", () => {
  it("stores the first value, then only changes and heartbeats", () => {
    const first = planSampleRows([sample(1)], EMPTY_SERIES_MEMORY, 1_000, null);
    expect(first.rows.map((r) => [r.atMs, r.value])).toEqual([[1_000, 1]]);
    const same = planSampleRows([sample(1)], first.next, 16_000, 1_000);
    expect(same.rows).toEqual([]);
    const changed = planSampleRows([sample(3)], same.next, 31_000, 16_000);
    expect(changed.rows.map((r) => [r.atMs, r.value])).toEqual([[31_000, 3]]);
    const beforeHeartbeat = planSampleRows([sample(3)], changed.next, 1_000 + HEARTBEAT_MS - 1, 31_000);
    expect(beforeHeartbeat.rows).toEqual([]);
    const heartbeat = planSampleRows([sample(3)], beforeHeartbeat.next, 1_000 + HEARTBEAT_MS, 31_000);
    expect(heartbeat.rows.map((r) => r.value)).toEqual([3]);
  });

  it("writes every series on the heartbeat, so no window's baseline is older than it", () => {
    const first = planSampleRows([sample(1, "A"), sample(5, "B")], EMPTY_SERIES_MEMORY, 1_000, null);
    const changedOne = planSampleRows([sample(2, "A"), sample(5, "B")], first.next, 200_000, 1_000);
    expect(changedOne.rows.map((r) => r.value)).toEqual([2]);
    const heartbeat = planSampleRows([sample(2, "A"), sample(5, "B")], changedOne.next, 1_000 + HEARTBEAT_MS, 200_000);
    expect(heartbeat.rows.map((r) => [r.atMs, r.value])).toEqual([
      [1_000 + HEARTBEAT_MS, 2],
      [1_000 + HEARTBEAT_MS, 5],
    ]);
    expect(planSampleRows([sample(2, "A"), sample(5, "B")], heartbeat.next, 16_000 + HEARTBEAT_MS, 1_000 + HEARTBEAT_MS).rows).toEqual([]);
  });

  it("writes a zero at the previous scrape for a series that appeared since", () => {
    const first = planSampleRows([sample(1)], EMPTY_SERIES_MEMORY, 1_000, null);
    const next = planSampleRows([sample(1), sample(2, "WeightVerifyError")], first.next, 16_000, 1_000);
    expect(next.rows.map((r) => [r.labels.includes("WeightVerifyError"), r.atMs, r.value])).toEqual([
      [true, 1_000, 0],
      [true, 16_000, 2],
    ]);
  });

  it("stores a changed series with its labels read and in canonical order, and nothing for the unchanged", () => {
    const first = planSampleRows([sample(1, "A"), sample(5, "B")], EMPTY_SERIES_MEMORY, 1_000, null);
    const next = planSampleRows([sample(1, "A"), { metric: "rollout_events_total", series: sample(0, "B").series, value: 6 }], first.next, 16_000, 1_000);
    expect(next.rows).toEqual([
      { metric: "rollout_events_total", labels: '{"name":"web","namespace":"shop","reason":"B","type":"Warning"}', atMs: 16_000, value: 6 },
    ]);
  });

  it("does not store a NaN again and again", () => {
    const first = planSampleRows([sample(Number.NaN)], EMPTY_SERIES_MEMORY, 1_000, null);
    expect(planSampleRows([sample(Number.NaN)], first.next, 16_000, 1_000).rows).toEqual([]);
  });

  it("forgets series that vanished, so a reappearance starts from zero again", () => {
    const first = planSampleRows([sample(5)], EMPTY_SERIES_MEMORY, 1_000, null);
    const gone = planSampleRows([], first.next, 16_000, 1_000);
    expect(gone.next.values.size).toBe(0);
    const back = planSampleRows([sample(1)], gone.next, 31_000, 16_000);
    expect(back.rows.map((r) => [r.atMs, r.value])).toEqual([
      [16_000, 0],
      [31_000, 1],
    ]);
  });

  it("tells apart the series of a large cluster by their digests", () => {
    const reasons = ["RolloutUpdated", "RolloutStepCompleted", "TrafficWeightUpdated", "RolloutPaused", "RolloutResumed", "ScalingReplicaSet", "RolloutCompleted"];
    const digests = new Set<string>();
    for (let i = 0; i < 5_000; i++) for (const reason of reasons) digests.add(seriesDigest(`rollout_events_total{name="svc-${i}",namespace="shop",reason="${reason}",type="Normal"}`));
    expect(digests.size).toBe(5_000 * reasons.length);
  });
});
