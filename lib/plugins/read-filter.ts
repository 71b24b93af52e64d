import type { Finding } from "./findings";
import { buildFleetMatrix } from "./registry";
import type { ComputedHealthReport, ComputedHealthView, PluginClusterView, PluginsOverview, PluginUserView } from "./view-types";

/** Whether the user may read objects of this namespace of this cluster; `null`: a cluster-scoped object. */
export type CanReadObject = (cluster: string, namespace: string | null) => boolean;

/** One cluster's registry for one user: who uses each plugin lists only what the user may read. */
export function readablePluginCluster(view: PluginClusterView, canRead: CanReadObject): PluginClusterView {
  const readable = (users: PluginUserView[]) => users.filter((user) => canRead(view.cluster, user.namespace));
  return {
    ...view,
    plugins: view.plugins.map((plugin) => ({ ...plugin, usedBy: readable(plugin.usedBy) })),
    unregistered: view.unregistered
      .map((entry) => ({ ...entry, usedBy: readable(entry.usedBy) }))
      .filter((entry) => entry.usedBy.length > 0),
  };
}

/** A finding is shown only when the user may read every object it names (its text names them too). */
function isReadableFinding(finding: Finding, canRead: CanReadObject): boolean {
  return finding.affected.every((object) => object.resourceKind === "ConfigMap" || canRead(object.cluster, object.namespace ?? null));
}

/**
 * The plugins page for one user. What each cluster registers, its controller and metrics are cluster-wide
 * configuration and stay; who uses each plugin lists only the Rollouts and templates the user may read, and a
 * finding naming anything else is left out. The matrix is rebuilt from what remains, so its counts agree.
 */
export function readablePluginsOverview(overview: PluginsOverview, canRead: CanReadObject): PluginsOverview {
  const clusters = overview.clusters.map((view) => readablePluginCluster(view, canRead));
  const findings = overview.findings.filter((finding) => isReadableFinding(finding, canRead));
  return { ...overview, clusters, matrix: buildFleetMatrix(clusters, findings), findings };
}

function readableHealth(view: ComputedHealthView, canRead: CanReadObject): ComputedHealthView {
  const keep = <T extends { cluster: string; namespace: string }>(items: T[]) =>
    items.filter((item) => canRead(item.cluster, item.namespace));
  const { verification, warnings } = view;
  return {
    ...view,
    rollouts: keep(view.rollouts),
    verification: { ...verification, data: verification.data && { unverified: keep(verification.data.unverified) } },
    warnings: { ...warnings, data: warnings.data && keep(warnings.data) },
    affected: keep(view.affected),
    otherProblems: keep(view.otherProblems),
  };
}

/**
 * A plugin health report for one user: the plugin's own numbers (call outcomes, SLO burn, latency) stay, as they
 * describe the plugin; the Rollouts listed with them (used by, unverified, warnings, affected) are only those the
 * user may read.
 */
export function readablePluginHealth(report: ComputedHealthReport, canRead: CanReadObject): ComputedHealthReport {
  return { ...report, plugins: report.plugins.map((view) => readableHealth(view, canRead)) };
}
