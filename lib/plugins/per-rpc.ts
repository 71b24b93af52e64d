import { addValues, quantileSeries, sumSeriesBy, sumValues } from "@/lib/metrics/counter-math";
import type { IncreaseSeries } from "@/lib/metrics/types";
import { CONTROLLER_FAMILIES } from "@/lib/metrics/scrape-plan";
import type { ClusterConfig, RollscopeConfig } from "@/lib/config/schema";
import { resolvePluginSettings } from "./effective-settings";
import { PLUGIN_METER_FAMILY, readsPluginMeter } from "./plugin-meter-family";
import type { PerRpcSettings } from "./settings-schema";
import type { PerRpcMethodView, PerRpcView } from "./view-types";

/** What a cluster's per-RPC metric (the meter's or a configured one) answered for its plugins. */
export interface PerRpcData {
  /** Call increases labelled plugin, method, outcome. */
  calls: IncreaseSeries[];
  /** Latency bucket increases labelled plugin, method, le. */
  buckets: IncreaseSeries[];
  /** The histogram's `_sum` and `_count` increases labelled plugin, method (the mean); empty when not read. */
  durationSums: IncreaseSeries[];
  durationCounts: IncreaseSeries[];
  /** Plugin process restarts labelled plugin (the meter's); empty when not read. */
  restarts: IncreaseSeries[];
  source: "meter" | "configured";
  error: string | null;
  signal: string;
}

/** Whether the configured PromQL is used (it needs Prometheus) rather than the metric names. */
export function usesPerRpcPromql(perRpc: PerRpcSettings, canQueryPromql: boolean): boolean {
  return canQueryPromql && perRpc.promql?.calls !== undefined;
}

/** Where the per-RPC numbers come from: never an upstream metric, so it says so. */
export function describePerRpcSignal(perRpc: PerRpcSettings, usePromql: boolean, sourceSignal: string): string {
  if (!usePromql && readsPluginMeter(perRpc))
    return `MEASURED at the plugin boundary: ${PLUGIN_METER_FAMILY.calls} / ${PLUGIN_METER_FAMILY.duration} (rollscope-plugin-meter) from ${sourceSignal}`;
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

/** The total of the series over the whole range (null points count as nothing). */
function totalOf(series: readonly IncreaseSeries[]): number {
  return series.reduce((acc, s) => acc + (sumValues(s.values) ?? 0), 0);
}

/** Mean duration over the range: increase of the histogram's sum over that of its count; null without calls. */
function meanOf(sums: readonly IncreaseSeries[], counts: readonly IncreaseSeries[]): number | null {
  const count = totalOf(counts);
  return sums.length > 0 && count > 0 ? totalOf(sums) / count : null;
}

function methodView(
  method: string,
  data: Pick<PerRpcData, "calls" | "buckets" | "durationSums" | "durationCounts">,
  isSuccess: (s: IncreaseSeries) => boolean,
): PerRpcMethodView {
  const ofMethod = (series: readonly IncreaseSeries[]) => series.filter((s) => s.labels.method === method);
  const mine = ofMethod(data.calls);
  const n = totalOf(mine);
  const ok = totalOf(mine.filter(isSuccess));
  const failed = new Map<string, number>();
  for (const s of mine.filter((x) => !isSuccess(x))) {
    const outcome = s.labels.outcome ?? "";
    failed.set(outcome, (failed.get(outcome) ?? 0) + totalOf([s]));
  }
  return {
    method,
    calls: n,
    errors: Math.max(0, n - ok),
    errorsByOutcome: [...failed.entries()]
      .filter(([, calls]) => calls > 0)
      .map(([outcome, calls]) => ({ outcome, calls }))
      .sort((a, b) => b.calls - a.calls || a.outcome.localeCompare(b.outcome)),
    successRate: n > 0 ? ok / n : null,
    ...rangeQuantiles(ofMethod(data.buckets)),
    mean: meanOf(ofMethod(data.durationSums), ofMethod(data.durationCounts)),
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
  const ofPlugin = (series: readonly IncreaseSeries[]) => series.filter((s) => s.labels.plugin === plugin);
  const calls = ofPlugin(data.calls);
  if (calls.length === 0) return null;
  const mine = {
    calls,
    buckets: ofPlugin(data.buckets),
    durationSums: ofPlugin(data.durationSums),
    durationCounts: ofPlugin(data.durationCounts),
  };
  const restarts = ofPlugin(data.restarts);
  const methods = [...new Set(calls.map((s) => s.labels.method ?? ""))].sort();
  const isSuccess = (s: IncreaseSeries) => successOutcomes.includes(s.labels.outcome ?? "");
  const allCalls = sumSeries(calls, timestamps.length);
  const okCalls = sumSeries(calls.filter(isSuccess), timestamps.length);
  const totalCalls = sumValues(allCalls) ?? 0;
  const totalOk = sumValues(okCalls) ?? 0;
  return {
    source: data.source,
    methods: methods.map((method) => methodView(method, mine, isSuccess)),
    points: timestamps.map((t, i) => {
      const n = allCalls[i];
      return { at: new Date(t).toISOString(), calls: n, successRate: n !== null && n > 0 ? (okCalls[i] ?? 0) / n : null };
    }),
    total: { calls: totalCalls, errors: Math.max(0, totalCalls - totalOk), successRate: totalCalls > 0 ? totalOk / totalCalls : null },
    restarts: data.source === "meter" ? Math.round(totalOf(restarts)) : null,
  };
}

/** The metric families one cluster's controller scrape keeps: the controller's plus any configured per-RPC plugin metrics. */
export function listScrapeFamilies(config: RollscopeConfig, cluster: ClusterConfig): Set<string> {
  const families = new Set<string>(CONTROLLER_FAMILIES);
  const perRpc = resolvePluginSettings(config.plugins, cluster.plugins).perRpc;
  if (perRpc.callsMetric) families.add(perRpc.callsMetric);
  if (perRpc.durationMetric) families.add(perRpc.durationMetric);
  if (readsPluginMeter(perRpc)) families.add(PLUGIN_METER_FAMILY.restarts);
  return families;
}
