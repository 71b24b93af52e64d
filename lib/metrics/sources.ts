import "server-only";
import type { ClusterConfig, RollscopeConfig } from "@/lib/config/schema";
import type { MetricSampleRepository } from "@/lib/db/metric-samples";
import { createPrometheusSource } from "./prometheus-source";
import { createScrapeSource } from "./scrape-source";
import type { MetricsSource } from "./types";

/** Builds the metrics source of a cluster: its Prometheus when configured, otherwise the stored scrapes. */
export function createMetricsSource(config: RollscopeConfig, cluster: ClusterConfig, samples: MetricSampleRepository): MetricsSource {
  if (cluster.prometheus) return createPrometheusSource(cluster.prometheus);
  return createScrapeSource(
    cluster.name,
    {
      intervalSeconds: config.metrics.scrape.intervalSeconds,
      service: config.metrics.scrape.service,
      controllerNamespace: cluster.controllerNamespace,
    },
    samples,
  );
}
