import { describe, expect, it } from "vitest";
import { listRangeTimestamps } from "@/lib/prometheus/matrix";
import { DEFAULT_SETTLE, IncrementalRangeReads } from "./incremental-range";
import type { IncreaseSeries, RangeSpec } from "./types";

const MINUTE = 60_000;
const STEP = 60;
const T0 = Date.UTC(2026, 11, 6, 9, 0, 0);

/**
 * A source whose answer at each step is a function of the series and the step's time, which the test can change
 * (a late scrape): every read is recorded, so the test sees what was asked.
 */
function fakeSource() {
  const state = { late: new Map<number, number>(), hidden: new Set<string>() };
  const asked: RangeSpec[] = [];
  const valueAt = (group: string, t: number) => state.late.get(t) ?? (group === "a" ? t / MINUTE : 1);
  const fetchRange = async (range: RangeSpec): Promise<IncreaseSeries[]> => {
    asked.push(range);
    const timestamps = listRangeTimestamps(range.startMs, range.endMs, range.stepSeconds * 1000);
    return ["a", "b"]
      .filter((group) => !state.hidden.has(group))
      .map((group) => ({ labels: { group }, values: timestamps.map((t) => valueAt(group, t)) }));
  };
  return { state, asked, fetchRange };
}

/** The last hour before `nowMs` on minute steps, as the plugin health report asks for it. */
const hourBefore = (nowMs: number): RangeSpec => {
  const endMs = Math.floor(nowMs / MINUTE) * MINUTE;
  return { startMs: endMs - 60 * MINUTE, endMs, stepSeconds: STEP };
};

/** A clock at T0, the reads under test on it, and a fake source. */
function setUp(options: { settleMs?: (stepMs: number) => number; maxEntries?: number } = {}) {
  const clock = { now: T0 };
  const reads = new IncrementalRangeReads({
    settleMs: options.settleMs ?? DEFAULT_SETTLE,
    maxEntries: options.maxEntries ?? 8,
    now: () => clock.now,
  });
  return { clock, reads, source: fakeSource() };
}

describe("IncrementalRangeReads", () => {
  it("answers a sliding hour like a full read while asking only for the steps of the last five minutes", async () => {
    const { clock, reads, source } = setUp();
    const first = await reads.read("q", hourBefore(clock.now), source.fetchRange);
    expect(first.kind).toBe("full");
    expect(source.asked.at(-1)).toEqual(hourBefore(clock.now));

    clock.now += 30_000;
    for (let i = 0; i < 6; i++, clock.now += 30_000) {
      const range = hourBefore(clock.now);
      const incremental = await reads.read("q", range, source.fetchRange);
      const full = await fakeSource().fetchRange(range);
      expect(incremental.series).toEqual(full);
      expect(incremental.kind).toBe("tail");
      // The steps that ended more than five minutes before the previous read are not asked again.
      expect(source.asked.at(-1)!.startMs).toBeGreaterThan(range.endMs - 7 * MINUTE);
      expect(source.asked.at(-1)!.endMs).toBe(range.endMs);
    }
  });

  it("takes a change a late scrape made to a recent step, and keeps what had settled", async () => {
    const { clock, reads, source } = setUp();
    const range = hourBefore(clock.now);
    await reads.read("q", range, source.fetchRange);
    // A scrape arrives late for the step two minutes ago; a settled step (20 minutes ago) "changes" too, which a
    // source never does: the kept value stands, proving it was not asked for.
    source.state.late.set(range.endMs - 2 * MINUTE, 999);
    source.state.late.set(range.endMs - 20 * MINUTE, 555);
    clock.now += 10_000;
    const again = await reads.read("q", hourBefore(clock.now), source.fetchRange);
    const a = again.series.find((s) => s.labels.group === "a")!;
    const at = (t: number) => a.values[(t - range.startMs) / MINUTE];
    expect(at(range.endMs - 2 * MINUTE)).toBe(999);
    expect(at(range.endMs - 20 * MINUTE)).toBe((range.endMs - 20 * MINUTE) / MINUTE);
  });

  it("reads the whole range again on another step, a range starting before what it kept, or another query", async () => {
    const { clock, reads, source } = setUp();
    const range = hourBefore(clock.now);
    await reads.read("q", range, source.fetchRange);
    expect((await reads.read("q", { ...range, stepSeconds: 120 }, source.fetchRange)).kind).toBe("full");
    await reads.read("q", range, source.fetchRange);
    expect((await reads.read("q", { ...range, startMs: range.startMs - 10 * MINUTE }, source.fetchRange)).kind).toBe("full");
    expect((await reads.read("other", range, source.fetchRange)).kind).toBe("full");
    // Off the kept grid (a start between two of its steps): whole.
    expect(
      (await reads.read("q", { ...range, startMs: range.startMs + 30_000, endMs: range.endMs + 30_000 }, source.fetchRange)).kind,
    ).toBe("full");
  });

  it("drops a series that has no value left in the range, and adds one that appears", async () => {
    const { clock, reads, source } = setUp({ settleMs: () => 0 });
    source.state.hidden.add("b");
    const range = hourBefore(clock.now);
    await reads.read("q", range, source.fetchRange);
    source.state.hidden = new Set(["a"]);
    clock.now += MINUTE;
    const next = await reads.read("q", hourBefore(clock.now), source.fetchRange);
    expect(next.series.map((s) => s.labels.group).sort()).toEqual(["a", "b"]);
    const b = next.series.find((s) => s.labels.group === "b")!;
    expect(b.values.filter((v) => v !== null)).toEqual([1]);
    // An hour later, a's values have all left the range.
    clock.now += 61 * MINUTE;
    const later = await reads.read("q", hourBefore(clock.now), source.fetchRange);
    expect(later.series.map((s) => s.labels.group)).toEqual(["b"]);
  });

  it("asks nothing when every step of the range has settled, and fails without losing what it kept", async () => {
    const { clock, reads, source } = setUp();
    const past: RangeSpec = { startMs: T0 - 3 * 60 * MINUTE, endMs: T0 - 2 * 60 * MINUTE, stepSeconds: STEP };
    const first = await reads.read("q", past, source.fetchRange);
    const asked = source.asked.length;
    const again = await reads.read("q", past, source.fetchRange);
    expect(again).toEqual({ series: first.series, kind: "none" });
    expect(source.asked).toHaveLength(asked);

    const range = hourBefore(clock.now);
    await reads.read("r", range, source.fetchRange);
    const failing = async () => Promise.reject(new Error("Prometheus is down"));
    await expect(reads.read("r", range, failing)).rejects.toThrow("Prometheus is down");
    clock.now += 30_000;
    expect((await reads.read("r", hourBefore(clock.now), source.fetchRange)).kind).toBe("tail");
  });

  it("keeps at most maxEntries queries, the least recently read going first", async () => {
    const { reads, source } = setUp({ maxEntries: 2 });
    const range = hourBefore(T0);
    await reads.read("a", range, source.fetchRange);
    await reads.read("b", range, source.fetchRange);
    await reads.read("a", range, source.fetchRange);
    await reads.read("c", range, source.fetchRange);
    expect(reads.size).toBe(2);
    expect((await reads.read("a", range, source.fetchRange)).kind).toBe("tail");
    expect((await reads.read("b", range, source.fetchRange)).kind).toBe("full");
  });
});
