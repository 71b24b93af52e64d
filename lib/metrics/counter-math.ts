import { GROUP_LABEL, PART_LABEL, type IncreaseSeries, type Labels, type RolloutGroup } from "./types";

/** One stored value of a counter series. Rows are written when the value changes (and as a periodic heartbeat). */
export interface StoredPoint {
  atMs: number;
  value: number;
}

/** The span in which scrapes succeeded; windows outside it have no data rather than zero. */
export interface Coverage {
  fromMs: number;
  toMs: number;
}

/**
 * Counter increase over each window `(t − step, t]`, from stored values in time order, with Prometheus' reset
 * rule: a value below its predecessor means the counter restarted from zero (controller restart), so the new
 * value itself is the increase. Unlike Prometheus' `increase()`, nothing is extrapolated: between stored rows
 * the value is known to be unchanged. A window is null when the series did not exist yet or no scrape covered
 * it; otherwise it is a number, zero included.
 */
export function computeWindowIncreases(
  points: readonly StoredPoint[],
  timestampsMs: readonly number[],
  stepMs: number,
  coverage: Coverage | null,
): Array<number | null> {
  return timestampsMs.map((t) => {
    const windowStart = t - stepMs;
    if (!coverage || t <= coverage.fromMs || windowStart >= coverage.toMs) return null;
    let seen = false;
    let increase = 0;
    for (let i = 0; i < points.length; i++) {
      const point = points[i];
      if (point.atMs > t) break;
      seen = true;
      if (point.atMs <= windowStart || i === 0) continue;
      const previous = points[i - 1].value;
      increase += point.value >= previous ? point.value - previous : point.value;
    }
    return seen ? increase : null;
  });
}

/**
 * A counter's increase over each window `(t[i-1], t[i]]` from its values at the window boundaries (as Prometheus
 * evaluates a bare selector at each step: the last sample at or before it): the difference, with Prometheus' reset
 * rule (a lower value means the counter restarted from zero, so the new value itself is the increase), and nothing
 * extrapolated. A series with no value at any earlier boundary was born in that window (a counter starts at zero, and
 * a label set such as `outcome="error"` first appears with the failures it counts), so its first value counts whole;
 * Prometheus' `increase()` loses it. Returns one value per window (`values.length - 1`), null where the series has no
 * value at the window's end.
 */
export function increasesBetweenSteps(values: ReadonlyArray<number | null>): Array<number | null> {
  const out: Array<number | null> = [];
  let last: number | null = values[0] ?? null;
  for (let i = 1; i < values.length; i++) {
    const value = values[i];
    if (value === null) {
      out.push(null);
      continue;
    }
    out.push(last === null ? value : value >= last ? value - last : value);
    last = value;
  }
  return out;
}

/** Adds series point by point; null + x = x, null + null = null. */
export function addValues(a: ReadonlyArray<number | null>, b: ReadonlyArray<number | null>): Array<number | null> {
  const length = Math.max(a.length, b.length);
  return Array.from({ length }, (_, i) => {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    return x === null ? y : y === null ? x : x + y;
  });
}

/** `sum by (labels…)`: groups series on the given labels and adds their values. */
export function sumSeriesBy(series: readonly IncreaseSeries[], by: readonly string[]): IncreaseSeries[] {
  const groups = new Map<string, IncreaseSeries>();
  for (const s of series) {
    const labels: Labels = Object.fromEntries(by.filter((label) => label in s.labels).map((label) => [label, s.labels[label]]));
    const key = JSON.stringify(by.map((label) => s.labels[label] ?? ""));
    const group = groups.get(key);
    if (group) group.values = addValues(group.values, s.values);
    else groups.set(key, { labels, values: [...s.values] });
  }
  return [...groups.values()];
}

/**
 * A grouped query's answer from one part's per-Rollout series (labelled `namespace` and `name`): summed per group
 * the Rollout belongs to and by the part's `by` labels, tagged with GROUP_LABEL and PART_LABEL as Prometheus would.
 */
export function sumSeriesPerGroup(
  series: readonly IncreaseSeries[],
  groups: readonly RolloutGroup[],
  part: { index: number; by: readonly string[] },
): IncreaseSeries[] {
  const groupsOf = new Map<string, string[]>();
  for (const group of groups) {
    for (const r of group.rollouts)
      groupsOf.set(`${r.namespace}/${r.name}`, [...(groupsOf.get(`${r.namespace}/${r.name}`) ?? []), group.key]);
  }
  const tagged = series.flatMap((s) =>
    (groupsOf.get(`${s.labels.namespace ?? ""}/${s.labels.name ?? ""}`) ?? []).map((key) => ({
      labels: { ...s.labels, [GROUP_LABEL]: key, [PART_LABEL]: String(part.index) },
      values: s.values,
    })),
  );
  return sumSeriesBy(tagged, [GROUP_LABEL, PART_LABEL, ...part.by]);
}

/** Total of a series' non-null values; null when every value is null. */
export function sumValues(values: ReadonlyArray<number | null>): number | null {
  let total: number | null = null;
  for (const value of values) if (value !== null) total = (total ?? 0) + value;
  return total;
}

export interface BucketCount {
  /** Upper bound; Infinity for `+Inf`. */
  le: number;
  /** Cumulative count (or its increase over a window). */
  count: number;
}

/**
 * Prometheus' `histogram_quantile`: linear interpolation inside the bucket holding the rank, the lower bound of
 * the first bucket taken as 0, and the highest finite bound returned when the rank falls in `+Inf`. Counts are
 * made monotonic first, as Prometheus does for increases that came out slightly out of order. Null without
 * observations or without a `+Inf` bucket.
 */
export function histogramQuantile(quantile: number, buckets: readonly BucketCount[]): number | null {
  if (buckets.length === 0 || Number.isNaN(quantile)) return null;
  const sorted = [...buckets].sort((a, b) => a.le - b.le);
  if (sorted[sorted.length - 1].le !== Infinity) return null;
  for (let i = 1; i < sorted.length; i++) sorted[i] = { ...sorted[i], count: Math.max(sorted[i].count, sorted[i - 1].count) };
  const total = sorted[sorted.length - 1].count;
  if (total <= 0) return null;
  if (quantile <= 0) return 0;
  if (quantile >= 1) return sorted.length > 1 ? sorted[sorted.length - 2].le : null;
  const rank = quantile * total;
  const index = sorted.findIndex((bucket) => bucket.count >= rank);
  if (index === sorted.length - 1) return sorted.length > 1 ? sorted[sorted.length - 2].le : null;
  const upper = sorted[index].le;
  const lower = index === 0 ? 0 : sorted[index - 1].le;
  const below = index === 0 ? 0 : sorted[index - 1].count;
  const inBucket = sorted[index].count - below;
  if (inBucket <= 0) return upper;
  return lower + (upper - lower) * ((rank - below) / inBucket);
}

/** Parses an `le` label value (`0.25`, `+Inf`). */
function parseLe(text: string): number | null {
  if (text === "+Inf" || text === "Inf") return Infinity;
  const value = Number(text);
  return Number.isFinite(value) ? value : null;
}

/**
 * The quantile at each point of bucket-increase series (one series per `le`, already filtered to the objects
 * of interest): buckets of equal `le` are added first, as `sum by (le)` would.
 */
export function quantileSeries(quantile: number, bucketSeries: readonly IncreaseSeries[], length: number): Array<number | null> {
  const byLe = sumSeriesBy(bucketSeries, ["le"]);
  return Array.from({ length }, (_, i) => {
    const buckets: BucketCount[] = [];
    for (const series of byLe) {
      const le = parseLe(series.labels.le ?? "");
      const count = series.values[i] ?? null;
      if (le === null || count === null) continue;
      buckets.push({ le, count });
    }
    return histogramQuantile(quantile, buckets);
  });
}
