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

/** Reads the meter at `address` (host:port on 127.0.0.0/8); `plugin` keeps only that plugin's series. */
export async function readPluginMeter(address: string, plugin?: string): Promise<PluginMeterReading> {
  if (!/^127\.\d+\.\d+\.\d+:\d+$/.test(address)) throw new Error(`a test reads meters on 127.0.0.0/8 only, not ${address}`);
  const response = await fetch(`http://${address}/metrics`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET http://${address}/metrics answered ${response.status}`);
  return readPluginMeterText(await response.text(), plugin);
}

/** The same reading from exposition text already fetched. */
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

/** Waits (bounded) until `until` holds for the meter's reading, and returns that reading. */
export async function waitForPluginMeter(
  address: string,
  until: (reading: PluginMeterReading) => boolean,
  { plugin, timeoutMs = 60_000 }: { plugin?: string; timeoutMs?: number } = {},
): Promise<PluginMeterReading> {
  const deadline = Date.now() + timeoutMs;
  let last: PluginMeterReading | Error = new Error("never read");
  while (Date.now() < deadline) {
    try {
      last = await readPluginMeter(address, plugin);
      if (until(last)) return last;
    } catch (err) {
      // The meter restarts with its plugin: its port is briefly closed.
      last = err instanceof Error ? err : new Error(String(err));
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `the meter on ${address} never reached the expected state; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
  );
}
