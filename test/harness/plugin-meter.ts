import contract from "../../plugin-meter/metrics.json";
import { samplesOf } from "./metrics-text";

/**
 * Reads a rollscope-plugin-meter's /metrics (plugin-meter/, one meter per plugin, on 127.0.0.1) into what a test
 * compares with what it injected: calls per method and outcome, durations per method, restarts, the meter's version.
 * Names come from plugin-meter/metrics.json, the family's contract.
 */

export interface PluginMeterReading {
  /** method → outcome (ok, error, transport, timeout) → calls. */
  calls: Record<string, Record<string, number>>;
  /** method → the duration histogram's count and sum (seconds). */
  durations: Record<string, { count: number; sum: number }>;
  restarts: number;
  /** rollscope_plugin_meter_info{version}, or null before the meter served anything. */
  version: string | null;
}

/** The reading of a meter's exposition text (its /metrics, already fetched); `plugin` keeps only that plugin's series. */
export function readPluginMeterText(text: string, plugin?: string): PluginMeterReading {
  const only: Record<string, string> = plugin === undefined ? {} : { plugin };
  const { calls, duration, restarts, info } = contract.metrics;
  const reading: PluginMeterReading = { calls: {}, durations: {}, restarts: 0, version: null };
  for (const s of samplesOf(text, calls.name, only)) {
    const byOutcome = (reading.calls[s.labels.method] ??= {});
    byOutcome[s.labels.outcome] = (byOutcome[s.labels.outcome] ?? 0) + s.value;
  }
  for (const [suffix, field] of [
    ["_count", "count"],
    ["_sum", "sum"],
  ] as const) {
    for (const s of samplesOf(text, `${duration.name}${suffix}`, only)) {
      const d = (reading.durations[s.labels.method] ??= { count: 0, sum: 0 });
      d[field] += s.value;
    }
  }
  reading.restarts = samplesOf(text, restarts.name, only).reduce((sum, s) => sum + s.value, 0);
  reading.version = samplesOf(text, info.name, only)[0]?.labels.version ?? null;
  return reading;
}
