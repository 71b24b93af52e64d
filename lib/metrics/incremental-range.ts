import { listRangeTimestamps } from "@/lib/prometheus/matrix";
import type { IncreaseSeries, RangeSpec } from "./types";

/** How a read was answered: the whole range asked for, only its unsettled tail, or nothing asked at all. */
export type RangeReadKind = "full" | "tail" | "none";

interface Entry {
  stepMs: number;
  /** The timestamps `series` is aligned on. */
  timestamps: number[];
  series: IncreaseSeries[];
  /** The last timestamp whose value no later scrape can change (−∞ when none was settled yet). */
  settledThroughMs: number;
}

export interface IncrementalRangeOptions {
  /** How long after a step's end its value may still change (late scrapes, a remote-write or Thanos lag). */
  settleMs: (stepMs: number) => number;
  /** At most this many queries are kept; the least recently read goes first. */
  maxEntries: number;
  now: () => number;
}

/** Five minutes, or two steps when they are longer: a sliding 1-hour range at 1-minute steps asks for 6 of 61 steps. */
export const DEFAULT_SETTLE = (stepMs: number) => Math.max(5 * 60_000, 2 * stepMs);

/**
 * Range answers kept per query, so that the next read of a sliding window asks the source only for the steps it has
 * not seen settled: the plugin health report reads the same hour of the same grouped queries every 30 s for every
 * cluster, and all but its last steps were already answered. Each step's value covers the step that ends at it and
 * depends on nothing later, so once its end is `settleMs` old it is final; the steps after that are asked again.
 * A read on another step or grid, or starting before what is kept, asks for the whole range.
 */
export class IncrementalRangeReads {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: IncrementalRangeOptions) {}

  async read(
    key: string,
    range: RangeSpec,
    fetchRange: (range: RangeSpec) => Promise<IncreaseSeries[]>,
  ): Promise<{ series: IncreaseSeries[]; kind: RangeReadKind }> {
    const stepMs = range.stepSeconds * 1000;
    const timestamps = listRangeTimestamps(range.startMs, range.endMs, stepMs);
    const entry = this.entries.get(key);
    const sameGrid =
      entry !== undefined &&
      entry.stepMs === stepMs &&
      entry.timestamps.length > 0 &&
      range.startMs >= entry.timestamps[0] &&
      (range.startMs - entry.timestamps[0]) % stepMs === 0;
    // The first step not known settled: everything from there on is asked for.
    const tailStart = sameGrid ? Math.max(range.startMs, entry.settledThroughMs + stepMs) : range.startMs;
    const kind: RangeReadKind = tailStart > range.endMs ? "none" : tailStart === range.startMs ? "full" : "tail";
    const fresh = kind === "none" ? [] : await fetchRange({ ...range, startMs: tailStart });

    const merged = new Map<string, IncreaseSeries>();
    const seriesOf = (labels: IncreaseSeries["labels"]) => {
      const id = labelsKey(labels);
      let series = merged.get(id);
      if (!series) merged.set(id, (series = { labels, values: timestamps.map(() => null) }));
      return series;
    };
    if (sameGrid && tailStart > range.startMs) {
      const shift = (range.startMs - entry.timestamps[0]) / stepMs;
      const kept = (tailStart - range.startMs) / stepMs;
      for (const cached of entry.series) {
        const values = cached.values.slice(shift, shift + kept);
        if (values.every((v) => v === null || v === undefined)) continue;
        const series = seriesOf(cached.labels);
        values.forEach((v, i) => (series.values[i] = v ?? null));
      }
    }
    const offset = (tailStart - range.startMs) / stepMs;
    for (const answered of fresh) {
      const series = seriesOf(answered.labels);
      answered.values.forEach((v, i) => {
        if (offset + i < timestamps.length) series.values[offset + i] = v;
      });
    }
    const series = [...merged.values()].filter((s) => s.values.some((v) => v !== null));

    const settledBefore = this.options.now() - this.options.settleMs(stepMs);
    let settledThroughMs = Number.NEGATIVE_INFINITY;
    for (const t of timestamps) if (t <= settledBefore) settledThroughMs = t;
    this.entries.delete(key);
    this.entries.set(key, { stepMs, timestamps, series, settledThroughMs });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.options.maxEntries) break;
      this.entries.delete(oldest);
    }
    return { series: series.map((s) => ({ labels: s.labels, values: [...s.values] })), kind };
  }

  get size(): number {
    return this.entries.size;
  }
}

function labelsKey(labels: IncreaseSeries["labels"]): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
}
