import { z } from "zod";
import { PLUGIN_KINDS, type PluginKind } from "./config";
import type { Finding } from "./findings";
import { HEALTH_RANGES, type HealthRange, type PluginsOverview } from "./view-types";

/** `<org>/<name>`, as argo-rollouts-config names a plugin. */
export const PLUGIN_NAME = z.string().regex(/^[a-zA-Z0-9-]+\/[a-zA-Z0-9_.-]+$/, { message: "must be <org>/<name>" });

const FIELDS = {
  cluster: z.string().min(1).max(253),
  plugin: PLUGIN_NAME,
  kind: z.enum(PLUGIN_KINDS),
  range: z.enum(HEALTH_RANGES),
};

/** The plugins page's filters, kept in its URL (`/plugins?cluster=prod-eu&kind=trafficRouter&range=6h`). */
export interface PluginsFilter {
  cluster: string | null;
  plugin: string | null;
  kind: PluginKind | null;
  range: HealthRange;
}

export const DEFAULT_PLUGINS_FILTER: PluginsFilter = { cluster: null, plugin: null, kind: null, range: "1h" };

interface ParamReader {
  get(name: string): string | null;
}

/** Each parameter on its own: an invalid one (hand-edited or stale link) falls back to its default, not the others. */
export function parsePluginsFilter(params: ParamReader): PluginsFilter {
  const read = <T>(schema: z.ZodType<T>, key: string): T | null => {
    const parsed = schema.safeParse(params.get(key) ?? undefined);
    return parsed.success ? parsed.data : null;
  };
  return {
    cluster: read(FIELDS.cluster, "cluster"),
    plugin: read(FIELDS.plugin, "plugin"),
    kind: read(FIELDS.kind, "kind"),
    range: read(FIELDS.range, "range") ?? DEFAULT_PLUGINS_FILTER.range,
  };
}

/** The URL query of a filter, defaults left out so the unfiltered page stays at `/plugins`. */
export function serializePluginsFilter(filter: PluginsFilter): string {
  const params = new URLSearchParams();
  if (filter.cluster) params.set("cluster", filter.cluster);
  if (filter.plugin) params.set("plugin", filter.plugin);
  if (filter.kind) params.set("kind", filter.kind);
  if (filter.range !== DEFAULT_PLUGINS_FILTER.range) params.set("range", filter.range);
  return params.toString();
}

function pluginMatches(filter: PluginsFilter, kind: PluginKind, name: string): boolean {
  return (filter.plugin === null || filter.plugin === name) && (filter.kind === null || filter.kind === kind);
}

function findingMatches(finding: Finding, filter: PluginsFilter, namesOfKind: ReadonlySet<string> | null): boolean {
  const inCluster = filter.cluster === null || finding.affected.some((a) => a.cluster === filter.cluster);
  const plugins = finding.affected.flatMap((a) => (a.plugin ? [a.plugin] : []));
  const ofPlugin = filter.plugin === null || plugins.includes(filter.plugin);
  const ofKind = namesOfKind === null || plugins.some((p) => namesOfKind.has(p));
  return inCluster && ofPlugin && ofKind;
}

/** The overview limited to the filter's cluster, plugin and kind: registry, matrix and findings alike. */
export function filterPluginsOverview(overview: PluginsOverview, filter: PluginsFilter): PluginsOverview {
  if (filter.cluster === null && filter.plugin === null && filter.kind === null) return overview;
  const inCluster = (cluster: string) => filter.cluster === null || filter.cluster === cluster;
  const clusters = overview.clusters
    .filter((c) => inCluster(c.cluster))
    .map((c) => ({
      ...c,
      plugins: c.plugins.filter((p) => pluginMatches(filter, p.kind, p.name)),
      unregistered: c.unregistered.filter((u) => pluginMatches(filter, u.kind, u.name)),
      entryErrors: c.entryErrors.filter((e) => pluginMatches(filter, e.kind, e.name ?? "")),
    }));
  const rows = overview.matrix.rows.filter(
    (row) =>
      pluginMatches(filter, row.kind, row.name) && Object.entries(row.cells).some(([c, cell]) => inCluster(c) && cell.state !== "absent"),
  );
  const namesOfKind = filter.kind === null ? null : new Set(overview.matrix.rows.filter((r) => r.kind === filter.kind).map((r) => r.name));
  return {
    ...overview,
    clusters,
    matrix: { clusters: overview.matrix.clusters.filter(inCluster), rows },
    findings: overview.findings.filter((f) => findingMatches(f, filter, namesOfKind)),
  };
}
