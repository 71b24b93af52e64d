import { addValues, quantileSeries, sumSeriesBy, sumValues } from "@/lib/metrics/counter-math";
import type { IncreaseSeries } from "@/lib/metrics/types";
import { CONTROLLER_FAMILIES } from "@/lib/metrics/scrape-plan";
import type { ClusterConfig, RollscopeConfig } from "@/lib/config/schema";
import { resolvePluginSettings } from "./effective-settings";
import type { PerRpcSettings } from "./settings-schema";
import type { PerRpcMethodView, PerRpcView } from "./view-types";

/** What a cluster's configured per-RPC metric answered for its plugins (`plugin`, `method`, `outcome`/`le` labels). */
export interface PerRpcData {
  calls: IncreaseSeries[];
  buckets: IncreaseSeries[];
  error: string | null;
  signal: string;
}

/** Whether the configured PromQL is used (it needs Prometheus) rather than the metric names. */
export function usesPerRpcPromql(perRpc: PerRpcSettings, canQueryPromql: boolean): boolean {
  return canQueryPromql && perRpc.promql?.calls !== undefined;
}

/** Where the per-RPC numbers come from: never an upstream metric, so it says so. */
export function describePerRpcSignal(perRpc: PerRpcSettings, usePromql: boolean, sourceSignal: string): string {
  return usePromql
    ? `configured per-RPC PromQL (plugins.perRpc.promql) on ${sourceSignal} — not an upstream metric`
    : `${perRpc.callsMetric ?? "?"}${perRpc.durationMetric ? ` / ${perRpc.durationMetric}` : ""} (configured per-RPC metric, not upstream) from ${sourceSignal}`;
}

function sumSeries(series: readonly IncreaseSeries[], length: number): Array<number | null> {
  return series.reduce<Array<number | null>>(
    (acc, s) => addValues(acc, s.values),
    Array.from({ length }, () => null),
  );
}

/** p50 and p95 over the whole range of `le`-labelled bucket increases; null without buckets. */
function rangeQuantiles(buckets: readonly IncreaseSeries[]): { p50: number | null; p95: number | null } {
  const totals = sumSeriesBy(buckets, ["le"]).map((s) => ({ labels: s.labels, values: [sumValues(s.values)] }));
  if (totals.length === 0) return { p50: null, p95: null };
  return { p50: quantileSeries(0.5, totals, 1)[0], p95: quantileSeries(0.95, totals, 1)[0] };
}

function methodView(
  method: string,
  calls: readonly IncreaseSeries[],
  buckets: readonly IncreaseSeries[],
  isSuccess: (s: IncreaseSeries) => boolean,
): PerRpcMethodView {
  const mine = calls.filter((s) => s.labels.method === method);
  const n = sumValues(sumSeries(mine, 0)) ?? 0;
  const ok = sumValues(sumSeries(mine.filter(isSuccess), 0)) ?? 0;
  return {
    method,
    calls: n,
    errors: Math.max(0, n - ok),
    successRate: n > 0 ? ok / n : null,
    ...rangeQuantiles(buckets.filter((s) => s.labels.method === method)),
  };
}

/**
 * One plugin's per-RPC view: calls, errors, success rate and latency per method over the range, and calls and
 * success rate at each point. A call is a success when its `outcome` is one of `successOutcomes`. Null when the
 * metric has no calls of this plugin.
 */
export function buildPerRpcView(
  data: PerRpcData,
  plugin: string,
  successOutcomes: readonly string[],
  timestamps: readonly number[],
): PerRpcView | null {
  const calls = data.calls.filter((s) => s.labels.plugin === plugin);
  if (calls.length === 0) return null;
  const buckets = data.buckets.filter((s) => s.labels.plugin === plugin);
  const methods = [...new Set(calls.map((s) => s.labels.method ?? ""))].sort();
  const isSuccess = (s: IncreaseSeries) => successOutcomes.includes(s.labels.outcome ?? "");
  const allCalls = sumSeries(calls, timestamps.length);
  const okCalls = sumSeries(calls.filter(isSuccess), timestamps.length);
  const totalCalls = sumValues(allCalls) ?? 0;
  const totalOk = sumValues(okCalls) ?? 0;
  return {
    methods: methods.map((method) => methodView(method, calls, buckets, isSuccess)),
    points: timestamps.map((t, i) => {
      const n = allCalls[i];
      return { at: new Date(t).toISOString(), calls: n, successRate: n !== null && n > 0 ? (okCalls[i] ?? 0) / n : null };
    }),
    total: { calls: totalCalls, errors: Math.max(0, totalCalls - totalOk), successRate: totalCalls > 0 ? totalOk / totalCalls : null },
  };
}

/** The metric families one cluster's controller scrape keeps: the controller's plus any configured per-RPC plugin metrics. */
export function listScrapeFamilies(config: RollscopeConfig, cluster: ClusterConfig): Set<string> {
  const families = new Set<string>(CONTROLLER_FAMILIES);
  const perRpc = resolvePluginSettings(config.plugins, cluster.plugins).perRpc;
  if (perRpc?.callsMetric) families.add(perRpc.callsMetric);
  if (perRpc?.durationMetric) families.add(perRpc.durationMetric);
  return families;
}
