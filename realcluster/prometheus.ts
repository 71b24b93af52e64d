import { existsSync } from "node:fs";
import { stringify } from "yaml";

/** Debian's Prometheus (or PROMETHEUS_BIN), or null. */
export function findPrometheus(): string | null {
  for (const candidate of [process.env.PROMETHEUS_BIN, "/usr/bin/prometheus", "/usr/local/bin/prometheus"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Scrapes the Argo Rollouts controller's /metrics every 5 s, labelled with the cluster's name. */
export function prometheusConfig(metricsUrl: string, cluster: string): string {
  const url = new URL(metricsUrl);
  return stringify({
    global: { scrape_interval: "5s", scrape_timeout: "5s", evaluation_interval: "5s" },
    scrape_configs: [
      {
        job_name: "argo-rollouts",
        metrics_path: url.pathname,
        static_configs: [{ targets: [url.host], labels: { cluster } }],
      },
    ],
  });
}
