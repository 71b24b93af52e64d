import "server-only";
import type { ClusterConfig, RollscopeConfig } from "@/lib/config/schema";
import { createPrometheusSource } from "./prometheus-source";
import { createScrapeSource } from "./scrape-source";
import type { MetricsSource } from "./types";

const globalForSources = globalThis as unknown as { rollscopeMetricsSources?: Map<string, MetricsSource> };

/** Builds the metrics source of a cluster: its Prometheus when configured, otherwise the stored scrapes. */
export function createMetricsSource(config: RollscopeConfig, cluster: ClusterConfig): MetricsSource {
  if (cluster.prometheus) return createPrometheusSource(cluster.prometheus);
  return createScrapeSource(cluster.name, {
    intervalSeconds: config.metrics.scrape.intervalSeconds,
    service: config.metrics.scrape.service,
    controllerNamespace: cluster.controllerNamespace,
  });
}

/** The cached metrics source of a cluster (one per process). */
export function getMetricsSource(config: RollscopeConfig, cluster: ClusterConfig): MetricsSource {
  const sources = (globalForSources.rollscopeMetricsSources ??= new Map());
  let source = sources.get(cluster.name);
  if (!source) sources.set(cluster.name, (source = createMetricsSource(config, cluster)));
  return source;
}
