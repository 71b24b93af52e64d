import { existsSync } from "node:fs";
import { stringify } from "yaml";

/** Debian's Prometheus (or PROMETHEUS_BIN), or null. */
export function findPrometheus(): string | null {
  for (const candidate of [process.env.PROMETHEUS_BIN, "/usr/bin/prometheus", "/usr/local/bin/prometheus"]) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

/** One scrape job: a /metrics URL. */
export interface ScrapeTarget {
  job: string;
  url: string;
}

/**
 * Scrapes every target every 5 s, labelled with the cluster's name: the Argo Rollouts controller and, with the data
 * plane, the proxy (Traefik) and the pods' own request counters.
 */
export function prometheusConfig(targets: readonly ScrapeTarget[], cluster: string): string {
  return stringify({
    global: { scrape_interval: "5s", scrape_timeout: "5s", evaluation_interval: "5s" },
    scrape_configs: targets.map((t) => {
      const url = new URL(t.url);
      return { job_name: t.job, metrics_path: url.pathname, static_configs: [{ targets: [url.host], labels: { cluster } }] };
    }),
  });
}
