import "server-only";
import type { PrometheusConfig } from "@/lib/config/schema";
import { createPrometheusClient, type PrometheusClient } from "@/lib/prometheus/client";
import { alignMatrix, listRangeTimestamps } from "@/lib/prometheus/matrix";
import { buildGroupedIncreaseQuery, buildIncreaseQuery, formatLabelFilter, injectLabelMatchers } from "@/lib/prometheus/promql";
import { countRangeRead } from "@/lib/telemetry/observe";
import { increasesBetweenSteps, sumSeriesBy } from "./counter-math";
import { DEFAULT_SETTLE, IncrementalRangeReads } from "./incremental-range";
import { GROUP_LABEL, PART_LABEL, type IncreaseQuery, type IncreaseSeries, type MetricsSource, type RangeSpec } from "./types";

function hasEmptySet(query: IncreaseQuery): boolean {
  return Object.values(query.filter ?? {}).some((value) => typeof value !== "string" && value.length === 0);
}

/** Metrics from the cluster's Prometheus (or a shared Prometheus/Thanos narrowed by the configured label matcher). */
export function createPrometheusSource(config: PrometheusConfig, client: PrometheusClient = createPrometheusClient(config)): MetricsSource {
  const matcher = config.labelMatcher?.trim();
  const signal = `Prometheus ${client.describe}${matcher ? ` {${matcher}}` : ""}`;
  // The grouped queries of the views asked for lately (each cluster's plugins over each range): a few dozen at most.
  const rangeReads = new IncrementalRangeReads({ settleMs: DEFAULT_SETTLE, maxEntries: 64, now: Date.now });

  async function run(promql: string, range: RangeSpec): Promise<IncreaseSeries[]> {
    const matrix = await client.queryRange(promql, range.startMs, range.endMs, range.stepSeconds);
    return alignMatrix(matrix, listRangeTimestamps(range.startMs, range.endMs, range.stepSeconds * 1000));
  }

  /**
   * `sum by (…)` of per-series increases from the counters' values at each step boundary (a bare selector over the
   * range, one step earlier to have the first window's base): every increment counted, none extrapolated, for the
   * same cost as `increase()`.
   */
  async function exactIncrease(query: IncreaseQuery, range: RangeSpec): Promise<IncreaseSeries[]> {
    const selector = injectLabelMatchers(`${query.metric}${formatLabelFilter(query.filter)}`, matcher);
    const values = await run(selector, { ...range, startMs: range.startMs - range.stepSeconds * 1000 });
    return sumSeriesBy(
      values.map((series) => ({ labels: series.labels, values: increasesBetweenSteps(series.values) })),
      query.by,
    );
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
      if (promql === null) return [];
      // One window (the burn rates) has nothing to keep; a sliding range asks only for its unsettled steps.
      if (range.startMs === range.endMs) return run(promql, range);
      const { series, kind } = await rangeReads.read(promql, range, (tail) => run(promql, tail));
      countRangeRead(kind);
      return series;
    },
    queryRange: (promql, range) => run(injectLabelMatchers(promql, matcher), range),
    async status() {
      return { ok: true, error: null, lastSuccessAt: null };
    },
  };
}
