import { Counter, Histogram, type Registry } from "prom-client";

/**
 * SIMULATOR-ONLY metrics: upstream Argo Rollouts has NO per-plugin RPC metric (reference §4.3 — nothing in
 * `rollout/trafficrouting/plugin/*` imports Prometheus, and the plugins export none). These exist so Rollscope's
 * config-supplied PromQL path for plugin RPC health can be exercised end to end; they are exported only for the
 * plugins listed in the controller's `rpcMetricsPlugins` option.
 */
export class PluginRpcMetrics {
  private readonly total: Counter<string>;
  private readonly duration: Histogram<string>;

  constructor(
    registry: Registry,
    private readonly plugins: ReadonlySet<string>,
  ) {
    this.total = new Counter({
      name: "rollscope_sim_plugin_rpc_total",
      help: "SIMULATOR ONLY (no upstream equivalent): traffic-router plugin RPCs by method and outcome.",
      labelNames: ["plugin", "method", "outcome"],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: "rollscope_sim_plugin_rpc_duration_seconds",
      help: "SIMULATOR ONLY (no upstream equivalent): simulated traffic-router plugin RPC duration.",
      labelNames: ["plugin", "method"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    });
  }

  observe(plugin: string, method: string, outcome: string, latencyMs: number): void {
    if (!this.plugins.has(plugin)) return;
    this.total.inc({ plugin, method, outcome });
    this.duration.observe({ plugin, method }, 0.002 + latencyMs / 1000);
  }
}
