import "server-only";
import { redactErrorText } from "@/lib/errors/known-secrets";
import type { MetricSampleRepository, StoredSeries } from "@/lib/db/metric-samples";
import { computeWindowIncreases, sumSeriesBy, sumSeriesPerGroup } from "./counter-math";
import { HEARTBEAT_MS } from "./scrape-plan";
import { matchesFilter, rangeTimestamps, type IncreaseQuery, type IncreaseSeries, type MetricsSource, type RangeSpec } from "./types";

const CACHE_MS = 5_000;

/**
 * Reads one cluster's stored series of a metric, reusing a read from the last few seconds that covers the requested
 * span: one page asks for the same counters over its range and over the 1 h and 24 h burn windows.
 */
function createCachedSeriesReader(samples: MetricSampleRepository, cluster: string) {
  const cache = new Map<string, { atMs: number; fromMs: number; toMs: number; series: Promise<StoredSeries[]> }>();
  return (metric: string, fromMs: number, toMs: number): Promise<StoredSeries[]> => {
    const now = Date.now();
    const hit = cache.get(metric);
    if (hit && now - hit.atMs < CACHE_MS && hit.fromMs <= fromMs && hit.toMs >= toMs - CACHE_MS) return hit.series;
    const series = samples.readSeries(cluster, metric, fromMs, toMs);
    cache.set(metric, { atMs: now, fromMs, toMs, series });
    series.catch(() => cache.delete(metric));
    return series;
  };
}

/**
 * Metrics from Rollscope's own scrape of the controller (every `intervalSeconds`, through the API server's
 * service proxy), stored as counter values in the database; increases are computed here with reset handling.
 */
export function createScrapeSource(
  cluster: string,
  settings: { intervalSeconds: number; service: string; controllerNamespace: string },
  samples: MetricSampleRepository,
): MetricsSource {
  const readSeries = createCachedSeriesReader(samples, cluster);
  async function increase(query: IncreaseQuery, range: RangeSpec): Promise<IncreaseSeries[]> {
    const stepMs = range.stepSeconds * 1000;
    const [stored, { coverage }] = await Promise.all([
      readSeries(query.metric, range.startMs - stepMs - HEARTBEAT_MS - settings.intervalSeconds * 1000, range.endMs),
      samples.readScrapeCoverage(cluster),
    ]);
    const timestamps = rangeTimestamps(range);
    const series = stored
      .filter((s) => matchesFilter(s.labels, query.filter))
      .map((s) => ({ labels: s.labels, values: computeWindowIncreases(s.points, timestamps, stepMs, coverage) }));
    return sumSeriesBy(series, query.by);
  }
  return {
    kind: "scrape",
    signal: `controller /metrics (${settings.controllerNamespace}/${settings.service}) scraped by Rollscope every ${settings.intervalSeconds} s through the API server proxy`,
    increase,
    async increaseByGroup({ parts, groups }, range) {
      // The stored series are per Rollout: sum them here, as Prometheus would in the query.
      const answers = await Promise.all(parts.map((part) => increase({ ...part, by: [...part.by, "namespace", "name"] }, range)));
      return answers.flatMap((series, index) => sumSeriesPerGroup(series, groups, { index, by: parts[index].by }));
    },
    queryRange: null,
    async status() {
      const { last, lastOkMs } = await samples.readScrapeCoverage(cluster);
      if (!last) return { ok: false, error: "no scrape has run yet", lastSuccessAt: null };
      // Rows stored by an older version may hold unredacted text.
      return {
        ok: last.ok,
        error: last.ok || last.error === null ? null : redactErrorText(last.error),
        lastSuccessAt: lastOkMs === null ? null : new Date(lastOkMs).toISOString(),
      };
    },
  };
}
