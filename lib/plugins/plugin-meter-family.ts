/**
 * The metric family of `rollscope-plugin-meter` (plugin-meter/metrics.json is the contract; a test holds these names
 * to it): what the meter, registered in argo-rollouts-config in place of a plugin, counts at the plugin's RPC
 * boundary. Upstream Argo Rollouts has no per-call metric; these are measured, not derived.
 */
export const PLUGIN_METER_FAMILY = {
  calls: "rollscope_plugin_calls_total",
  duration: "rollscope_plugin_call_duration_seconds",
  restarts: "rollscope_plugin_restarts_total",
  info: "rollscope_plugin_meter_info",
} as const;

/** A call's outcome as the meter records it; only `ok` is a success. */
export const PLUGIN_METER_OUTCOMES = ["ok", "error", "transport", "timeout"] as const;
export type PluginMeterOutcome = (typeof PLUGIN_METER_OUTCOMES)[number];

export const PLUGIN_METER_KINDS = ["trafficRouter", "metricProvider", "step"] as const;
export type PluginMeterKind = (typeof PLUGIN_METER_KINDS)[number];

/** The meter's latency buckets (seconds). */
export const PLUGIN_METER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] as const;

/** The per-RPC settings that read the meter: Rollscope's default where the configuration names no other metric. */
export const PLUGIN_METER_PER_RPC = {
  callsMetric: PLUGIN_METER_FAMILY.calls,
  durationMetric: PLUGIN_METER_FAMILY.duration,
  successOutcomes: ["ok"],
} as const;

/** Whether per-RPC settings read the meter's family (its figures are measured at the plugin boundary). */
export function readsPluginMeter(perRpc: { callsMetric?: string; promql?: unknown }): boolean {
  return perRpc.callsMetric === PLUGIN_METER_FAMILY.calls && perRpc.promql === undefined;
}
