import type { FindingSeverity } from "./findings";
import { rankPluginHealth, sortHealthWorstFirst, type HealthLevel } from "./health-rank";
import type { PluginHealthView, PluginsOverview } from "./view-types";

export interface PluginsSummary {
  plugins: number;
  clusters: number;
  findings: Record<FindingSeverity, number>;
  /** The worst traffic-router health in view; null when no health is known (yet). */
  worst: { plugin: string; cluster: string | null; level: HealthLevel; successRate: number | null } | null;
}

/** The strip at the top of the plugins page: what is there and the worst of it, for what the filter shows. */
export function summarizePlugins(overview: PluginsOverview, health: readonly PluginHealthView[] | null): PluginsSummary {
  const findings: Record<FindingSeverity, number> = { critical: 0, warning: 0, info: 0 };
  for (const finding of overview.findings) findings[finding.severity] += 1;
  const [worstView] = sortHealthWorstFirst(health ?? []);
  const worstRank = worstView ? rankPluginHealth(worstView) : null;
  return {
    plugins: new Set(overview.matrix.rows.map((row) => row.name)).size,
    clusters: overview.clusters.length,
    findings,
    worst:
      worstView && worstRank
        ? { plugin: worstView.plugin, cluster: worstView.cluster, level: worstRank.level, successRate: worstRank.successRate }
        : null,
  };
}
