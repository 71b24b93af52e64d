import { describe, expect, it } from "vitest";
import { EMPTY_SERIES_MEMORY, HEARTBEAT_MS, planSampleRows, seriesDigest } from "./scrape-plan";

const sample = (value: number, reason = "TrafficRoutingError", name = "web") => ({
  metric: "rollout_events_total",
  series: `rollout_events_total{name="${name}",namespace="shop",reason="${reason}",type="Warning"}`,
  value,
});

describe("planSampleRows", () => {
  it("stores the first value, then changes", () => {
    const first = planSampleRows([sample(1)], EMPTY_SERIES_MEMORY, 1_000, null);
    expect(first.rows.map((r) => [r.atMs, r.value])).toEqual([[1_000, 1]]);
    // Scrapes a second apart: this series' heartbeat (one instant in five minutes) falls in none of them.
    const same = planSampleRows([sample(1)], first.next, 2_000, 1_000);
    expect(same.rows).toEqual([]);
    const changed = planSampleRows([sample(3)], same.next, 3_000, 2_000);
    expect(changed.rows.map((r) => [r.atMs, r.value])).toEqual([[3_000, 3]]);
  });

  it("writes each unchanged series once per heartbeat period, at most a period and a scrape apart", () => {
    const series = Array.from({ length: 50 }, (_, i) => sample(7, "RolloutUpdated", `svc-${i}`));
    const writes = new Map<string, number[]>();
    let memory = EMPTY_SERIES_MEMORY;
    let previous: number | null = null;
    for (let at = 1_000; at <= 1_000 + 2 * HEARTBEAT_MS; at += 15_000) {
      const plan = planSampleRows(series, memory, at, previous);
      for (const row of plan.rows) writes.set(row.labels, [...(writes.get(row.labels) ?? []), row.atMs]);
      memory = plan.next;
      previous = at;
    }
    expect(writes.size).toBe(50);
    for (const times of writes.values()) {
      // The first scrape, then once in each of the two periods that follow.
      expect(times).toHaveLength(3);
      expect(times[0]).toBe(1_000);
      for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeLessThanOrEqual(HEARTBEAT_MS + 15_000);
    }
  });

  it("spreads the heartbeats over the period instead of writing every series on one scrape", () => {
    const series = Array.from({ length: 2_000 }, (_, i) => sample(7, "RolloutUpdated", `svc-${i}`));
    let memory = planSampleRows(series, EMPTY_SERIES_MEMORY, 0, null).next;
    const perScrape: number[] = [];
    for (let at = 15_000, previous = 0; at <= HEARTBEAT_MS; previous = at, at += 15_000) {
      const plan = planSampleRows(series, memory, at, previous);
      perScrape.push(plan.rows.length);
      memory = plan.next;
    }
    // Twenty scrapes cover one period: every series once, about a twentieth on each.
    expect(perScrape.reduce((a, b) => a + b, 0)).toBe(2_000);
    expect(Math.max(...perScrape)).toBeLessThan(200);
  });

  it("writes every series after a period without a successful scrape", () => {
    const series = [sample(1, "A"), sample(5, "B")];
    const first = planSampleRows(series, EMPTY_SERIES_MEMORY, 1_000, null);
    expect(planSampleRows(series, first.next, 1_000 + HEARTBEAT_MS, 1_000).rows.map((r) => [r.atMs, r.value])).toEqual([
      [1_000 + HEARTBEAT_MS, 1],
      [1_000 + HEARTBEAT_MS, 5],
    ]);
  });

  it("writes a zero at the previous scrape for a series that appeared since", () => {
    const first = planSampleRows([sample(1)], EMPTY_SERIES_MEMORY, 1_000, null);
    const next = planSampleRows([sample(1), sample(2, "WeightVerifyError")], first.next, 2_000, 1_000);
    expect(next.rows.map((r) => [r.labels.includes("WeightVerifyError"), r.atMs, r.value])).toEqual([
      [true, 1_000, 0],
      [true, 2_000, 2],
    ]);
  });

  it("stores a changed series with its labels read and in canonical order, and nothing for the unchanged", () => {
    const first = planSampleRows([sample(1, "A"), sample(5, "B")], EMPTY_SERIES_MEMORY, 1_000, null);
    const next = planSampleRows(
      [sample(1, "A"), { metric: "rollout_events_total", series: sample(0, "B").series, value: 6 }],
      first.next,
      2_000,
      1_000,
    );
    expect(next.rows).toEqual([
      { metric: "rollout_events_total", labels: '{"name":"web","namespace":"shop","reason":"B","type":"Warning"}', atMs: 2_000, value: 6 },
    ]);
  });

  it("does not store a NaN again and again", () => {
    const first = planSampleRows([sample(Number.NaN)], EMPTY_SERIES_MEMORY, 1_000, null);
    expect(planSampleRows([sample(Number.NaN)], first.next, 2_000, 1_000).rows).toEqual([]);
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
    const reasons = [
      "RolloutUpdated",
      "RolloutStepCompleted",
      "TrafficWeightUpdated",
      "RolloutPaused",
      "RolloutResumed",
      "ScalingReplicaSet",
      "RolloutCompleted",
    ];
    const digests = new Set<string>();
    for (let i = 0; i < 5_000; i++)
      for (const reason of reasons)
        digests.add(seriesDigest(`rollout_events_total{name="svc-${i}",namespace="shop",reason="${reason}",type="Normal"}`));
    expect(digests.size).toBe(5_000 * reasons.length);
  });
});
