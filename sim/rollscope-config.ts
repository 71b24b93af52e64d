import { writeFileSync } from "node:fs";
import { stringify } from "yaml";
import { PLUGIN_METER_SERVICE } from "./controller/metrics-service";

/**
 * A Rollscope configuration for a simulated fleet: one entry per cluster, on the kubeconfig context that uses the
 * dashboard's own identity (the kubeconfig also holds `<cluster>-admin` contexts for tests, which Rollscope must not
 * pick up as clusters of their own). Each simulated controller has a plugin meter in front of its plugins, so the
 * scrape (clusters without a Prometheus) reads the meter's endpoint too, as docs/plugins.md configures it.
 */
export function buildRollscopeConfig(
  kubeconfigPath: string,
  clusters: ReadonlyArray<{ name: string; labels: Record<string, string> }>,
  extra: Record<string, unknown> = {},
  /** Per-cluster settings, e.g. the cluster's Prometheus. */
  clusterExtra: (cluster: string) => Record<string, unknown> = () => ({}),
): string {
  return stringify({
    clusters: clusters.map((c) => ({
      name: c.name,
      ...(c.labels.env ? { label: c.labels.env } : {}),
      kubeconfig: { path: kubeconfigPath, context: c.name },
      controllerNamespace: "argo-rollouts",
      ...clusterExtra(c.name),
    })),
    metrics: { scrape: { pluginMeters: [PLUGIN_METER_SERVICE] } },
    ...extra,
  });
}

export function writeRollscopeConfig(file: string, ...args: Parameters<typeof buildRollscopeConfig>): void {
  writeFileSync(file, buildRollscopeConfig(...args), { mode: 0o600 });
}
