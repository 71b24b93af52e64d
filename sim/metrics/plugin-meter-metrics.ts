import { readFileSync } from "node:fs";
import path from "node:path";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** The meter's metric family as its contract declares it (plugin-meter/metrics.json): the simulator reads it there. */
interface MeterContract {
  outcomes: string[];
  kinds: string[];
  metrics: Record<"calls" | "duration" | "restarts" | "info", { name: string; labels: string[]; buckets?: number[] }>;
}

const PLUGIN_METER_CONTRACT = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../plugin-meter/metrics.json"), "utf8"),
) as MeterContract;

export type PluginMeterKind = "trafficRouter" | "metricProvider" | "step";
export type PluginMeterOutcome = "ok" | "error" | "transport" | "timeout";

/** The version the simulated meter reports, as `rollscope-plugin-meter --version` does. */
const SIM_PLUGIN_METER_VERSION = "sim";

/**
 * What rollscope-plugin-meter (plugin-meter/, registered in argo-rollouts-config in place of each plugin) exports
 * about the calls the simulated controller makes: the same family, names, labels and buckets
 * (plugin-meter/metrics.json), served on an endpoint of its own as the meter's process serves one. Upstream has no
 * such metric; on a real cluster it exists only where the meter is installed.
 */
export class PluginMeterMetrics {
  readonly registry = new Registry();
  private readonly calls: Counter<string>;
  private readonly duration: Histogram<string>;
  private readonly restarts: Counter<string>;
  private readonly info: Gauge<string>;
  private readonly started = new Set<string>();

  constructor(private readonly metered: (plugin: string) => boolean = () => true) {
    const registers = [this.registry];
    const { calls, duration, restarts, info } = PLUGIN_METER_CONTRACT.metrics;
    this.calls = new Counter({
      name: calls.name,
      help: "Plugin RPC calls by method and outcome, measured at the plugin's RPC boundary.",
      labelNames: calls.labels,
      registers,
    });
    this.duration = new Histogram({
      name: duration.name,
      help: "Plugin RPC call duration in seconds, measured at the plugin's RPC boundary.",
      labelNames: duration.labels,
      buckets: duration.buckets ?? [],
      registers,
    });
    this.restarts = new Counter({
      name: restarts.name,
      help: "Restarts of the plugin process after its first start.",
      labelNames: restarts.labels,
      registers,
    });
    this.info = new Gauge({ name: info.name, help: "The meter in front of a plugin.", labelNames: info.labels, registers });
  }

  /** One call as the meter sees it; an InitPlugin after the first start of the plugin's process is a restart. */
  observe(plugin: string, kind: PluginMeterKind, method: string, outcome: PluginMeterOutcome, seconds: number): void {
    if (!this.metered(plugin)) return;
    if (method === "InitPlugin") {
      if (this.started.has(plugin)) this.restarts.inc({ plugin, kind });
      this.started.add(plugin);
      this.restarts.inc({ plugin, kind }, 0);
      this.info.set({ plugin, kind, version: SIM_PLUGIN_METER_VERSION }, 1);
    }
    this.calls.inc({ plugin, kind, method, outcome });
    this.duration.observe({ plugin, kind, method }, seconds);
  }
}
