import type { LabelFilter } from "@/lib/prometheus/promql";

export type Labels = Record<string, string>;

/** A query range on step-aligned timestamps; every point covers the `stepSeconds` that end at it. */
export interface RangeSpec {
  startMs: number;
  endMs: number;
  stepSeconds: number;
}

/** `sum by (<by>) (increase(<metric>{<filter>}[step]))`, whichever source answers it. */
export interface IncreaseQuery {
  metric: string;
  filter?: LabelFilter;
  by: readonly string[];
  /**
   * Count every increment exactly, without Prometheus' extrapolation: 3 failed calls of 31 read 3 of 31, not 2.1 of
   * 30.5 (Prometheus is asked for the counters' values at each step and Rollscope takes the differences; the
   * scrape mode is always exact).
   */
  exact?: boolean;
}

/** A named set of Rollouts (e.g. those that use one plugin) whose series a grouped query sums together. */
export interface RolloutGroup {
  key: string;
  rollouts: ReadonlyArray<{ namespace: string; name: string }>;
}

/**
 * Several increase queries (`parts`), each summed per group of Rollouts by the source: for Prometheus one query whose
 * answer is one series per group, part and `by` labels, instead of one per Rollout.
 */
export interface GroupedIncreaseQuery {
  parts: readonly IncreaseQuery[];
  groups: readonly RolloutGroup[];
}

/** Labels a grouped query's answer carries: the group's key and the part's index. */
export const GROUP_LABEL = "rollscope_group";
export const PART_LABEL = "rollscope_part";

/** One group's increases on the range's timestamps; null where the source has no data for that window. */
export interface IncreaseSeries {
  labels: Labels;
  values: Array<number | null>;
}

export type MetricsSourceKind = "prometheus" | "scrape";

/** How a source is doing, for the panels that depend on it. */
export interface MetricsSourceStatus {
  ok: boolean;
  /** What failed last, safe to show. */
  error: string | null;
  /** Last successful scrape (scrape mode), ISO. */
  lastSuccessAt: string | null;
}

/**
 * Where a cluster's controller metrics come from: its Prometheus (query_range over the HTTP API) or, without
 * one, Rollscope's own scrape of the controller's /metrics through the API server proxy, kept in the database.
 * Both answer the same question (counter increases per window), so the pages do not care which one it is.
 */
export interface MetricsSource {
  readonly kind: MetricsSourceKind;
  /** Human-readable signal origin, e.g. `Prometheus http://prom:9090 {cluster="prod-eu"}`. */
  readonly signal: string;
  increase(query: IncreaseQuery, range: RangeSpec): Promise<IncreaseSeries[]>;
  /** Each part's increases summed per group of Rollouts (labels GROUP_LABEL, PART_LABEL and the part's `by`). */
  increaseByGroup(query: GroupedIncreaseQuery, range: RangeSpec): Promise<IncreaseSeries[]>;
  /** Raw PromQL over the range (Prometheus mode only; scrape mode cannot evaluate PromQL). */
  queryRange: ((promql: string, range: RangeSpec) => Promise<IncreaseSeries[]>) | null;
  status(): Promise<MetricsSourceStatus>;
}

/** Builds a range whose timestamps are multiples of the step, so repeated requests and both sources line up. */
export function alignRange(fromMs: number, toMs: number, stepSeconds: number): RangeSpec {
  const stepMs = stepSeconds * 1000;
  const endMs = Math.floor(toMs / stepMs) * stepMs;
  const startMs = Math.min(endMs, Math.floor(fromMs / stepMs) * stepMs + stepMs);
  return { startMs, endMs, stepSeconds };
}

/** The range's timestamps in ms. */
export function rangeTimestamps(range: RangeSpec): number[] {
  const stepMs = range.stepSeconds * 1000;
  const out: number[] = [];
  for (let t = range.startMs; t <= range.endMs; t += stepMs) out.push(t);
  return out;
}

/** Whether a label set passes an exact / one-of filter. */
export function matchesFilter(labels: Labels, filter: LabelFilter | undefined): boolean {
  for (const [label, wanted] of Object.entries(filter ?? {})) {
    const value = labels[label] ?? "";
    if (typeof wanted === "string" ? value !== wanted : !wanted.includes(value)) return false;
  }
  return true;
}

/** Label names in key order, by the names in the order a label set has them (a scrape has a few such orders). */
const keyOrders = new Map<string, readonly string[]>();
const MAX_KEY_ORDERS = 1_000;
const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;

/**
 * Canonical key of a label set (sorted), used to group and to store series: the JSON of the labels with their
 * names in `localeCompare` order, as stored since the first release (stored keys must not change). The order is
 * worked out once per set of names; an index-like name, which JSON would move first, takes the general path.
 */
export function labelsKey(labels: Labels): string {
  const names = Object.keys(labels);
  const signature = names.join("\u0000");
  let order = keyOrders.get(signature);
  if (order === undefined) {
    if (names.some((name) => INDEX_LIKE.test(name)))
      return JSON.stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b))));
    order = names.sort((a, b) => a.localeCompare(b));
    if (keyOrders.size >= MAX_KEY_ORDERS) keyOrders.clear();
    keyOrders.set(signature, order);
  }
  let key = "";
  for (const name of order) {
    const value = labels[name] as string | undefined;
    if (value !== undefined) key += `${key === "" ? "" : ","}${JSON.stringify(name)}:${JSON.stringify(value)}`; // as JSON leaves undefined out
  }
  return `{${key}}`;
}
