import { mergeMeasuredTrafficTemplates, type ResolvedTemplate } from "./measured-traffic";
import { PLUGIN_METER_PER_RPC } from "./plugin-meter-family";
import type { PerRpcSettings, PluginSettings } from "./settings-schema";

const DEFAULT_SLO_TARGET = 0.99;
const DEFAULT_STUCK_TOLERANCE_PERCENT = 10;
const DEFAULT_STUCK_FOR_SECONDS = 120;
const DEFAULT_MEASURED_WINDOW = "1m";

export interface EffectivePluginSettings {
  sloTarget: number;
  sloByPlugin: Record<string, number>;
  stuckRouter: { tolerancePercent: number; forSeconds: number };
  measuredTraffic: { window: string; templates: Record<string, ResolvedTemplate> };
  /** Where per-call figures come from: the configured metric, else the plugin meter's family. */
  perRpc: PerRpcSettings;
}

/** The settings in force for one cluster: its own `plugins` block over the fleet-wide one over the defaults. */
export function resolvePluginSettings(fleet: PluginSettings | undefined, cluster: PluginSettings | undefined): EffectivePluginSettings {
  return {
    sloTarget: cluster?.slo?.target ?? fleet?.slo?.target ?? DEFAULT_SLO_TARGET,
    sloByPlugin: { ...(fleet?.slo?.plugins ?? {}), ...(cluster?.slo?.plugins ?? {}) },
    stuckRouter: {
      tolerancePercent: cluster?.stuckRouter?.tolerancePercent ?? fleet?.stuckRouter?.tolerancePercent ?? DEFAULT_STUCK_TOLERANCE_PERCENT,
      forSeconds: cluster?.stuckRouter?.forSeconds ?? fleet?.stuckRouter?.forSeconds ?? DEFAULT_STUCK_FOR_SECONDS,
    },
    measuredTraffic: {
      window: cluster?.measuredTraffic?.window ?? fleet?.measuredTraffic?.window ?? DEFAULT_MEASURED_WINDOW,
      templates: mergeMeasuredTrafficTemplates(fleet?.measuredTraffic?.templates, cluster?.measuredTraffic?.templates),
    },
    perRpc: cluster?.perRpc ?? fleet?.perRpc ?? { ...PLUGIN_METER_PER_RPC, successOutcomes: [...PLUGIN_METER_PER_RPC.successOutcomes] },
  };
}

/** The SLO target of one plugin in a cluster. */
export function sloTargetOf(settings: EffectivePluginSettings, plugin: string): number {
  return settings.sloByPlugin[plugin] ?? settings.sloTarget;
}
