import "server-only";
import type { PrometheusConfig } from "@/lib/config/schema";
import { createPrometheusClient, type PrometheusClient } from "@/lib/prometheus/client";
import { alignMatrix, listRangeTimestamps } from "@/lib/prometheus/matrix";
import {
  buildGroupedIncreaseQuery,
  buildIncreaseQuery,
  formatLabelFilter,
  formatPromDuration,
  injectLabelMatchers,
} from "@/lib/prometheus/promql";
import { computeSampledIncreases, sumSeriesBy } from "./counter-math";
import { GROUP_LABEL, PART_LABEL, type IncreaseQuery, type IncreaseSeries, type MetricsSource, type RangeSpec } from "./types";

/**
 * Raw samples for an exact increase are read from this long before the range's first window: a series that existed
 * then has a sample near the start (any scrape interval under {@link BORN_GRACE_MS}); one whose first sample comes
 * later was born in the range and counts from zero.
 */
const EXACT_LOOKBACK_MS = 5 * 60_000;
const BORN_GRACE_MS = 2 * 60_000;

function hasEmptySet(query: IncreaseQuery): boolean {
  return Object.values(query.filter ?? {}).some((value) => typeof value !== "string" && value.length === 0);
}

/** Metrics from the cluster's Prometheus (or a shared Prometheus/Thanos narrowed by the configured label matcher). */
export function createPrometheusSource(config: PrometheusConfig, client: PrometheusClient = createPrometheusClient(config)): MetricsSource {
  const matcher = config.labelMatcher?.trim();
  const signal = `Prometheus ${client.describe}${matcher ? ` {${matcher}}` : ""}`;

  async function run(promql: string, range: RangeSpec): Promise<IncreaseSeries[]> {
    const matrix = await client.queryRange(promql, range.startMs, range.endMs, range.stepSeconds);
    return alignMatrix(matrix, listRangeTimestamps(range.startMs, range.endMs, range.stepSeconds * 1000));
  }

  /** `sum by (…)` of per-series increases computed from raw samples: every increment counted, none extrapolated. */
  async function exactIncrease(query: IncreaseQuery, range: RangeSpec): Promise<IncreaseSeries[]> {
    const stepMs = range.stepSeconds * 1000;
    const fromMs = range.startMs - stepMs - EXACT_LOOKBACK_MS;
    const selector = `${query.metric}${formatLabelFilter(query.filter)}[${formatPromDuration(Math.ceil((range.endMs - fromMs) / 1000))}]`;
    const matrix = await client.querySamples(injectLabelMatchers(selector, matcher), range.endMs);
    const timestamps = listRangeTimestamps(range.startMs, range.endMs, stepMs);
    const perSeries = matrix.map((series) => {
      const points = series.values
        .map(([seconds, value]) => ({ atMs: Math.round(seconds * 1000), value: Number(value) }))
        .filter((p) => Number.isFinite(p.value));
      const fetched = { fromMs, toMs: range.endMs, bornGraceMs: BORN_GRACE_MS };
      return { labels: series.metric, values: computeSampledIncreases(points, timestamps, stepMs, fetched) };
    });
    return sumSeriesBy(perSeries, query.by);
  }

  return {
    kind: "prometheus",
    signal,
    async increase(query, range) {
      if (hasEmptySet(query)) return [];
      if (query.exact) return exactIncrease(query, range);
      const promql = buildIncreaseQuery({ ...query, windowSeconds: range.stepSeconds, labelMatchers: matcher });
      return run(promql, range);
    },
    async increaseByGroup(query, range) {
      const promql = buildGroupedIncreaseQuery({
        ...query,
        windowSeconds: range.stepSeconds,
        groupLabel: GROUP_LABEL,
        partLabel: PART_LABEL,
        labelMatchers: matcher,
      });
      return promql === null ? [] : run(promql, range);
    },
    queryRange: (promql, range) => run(injectLabelMatchers(promql, matcher), range),
    async status() {
      return { ok: true, error: null, lastSuccessAt: null };
    },
  };
}
