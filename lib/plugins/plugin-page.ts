import type { PluginKind } from "./config";
import type { Finding } from "./findings";
import type { ReferencingKind } from "./usage";
import type { MatrixCellState, PluginsOverview } from "./view-types";

/** One cluster's entry for a plugin: how argo-rollouts-config registers it there, if at all. */
export interface PluginEntryRow {
  cluster: string;
  kind: PluginKind;
  state: MatrixCellState;
  version: string | null;
  location: string | null;
  sha256: boolean;
  args: string[];
  disabled: boolean;
}

/** A resource that references the plugin, in one cluster. */
export interface PluginUserRow {
  cluster: string;
  kind: ReferencingKind;
  namespace: string | null;
  name: string;
  viaTemplate: string | null;
  /** False when the cluster does not register the plugin the resource names. */
  registered: boolean;
}

export interface PluginPage {
  name: string;
  kinds: PluginKind[];
  entries: PluginEntryRow[];
  /** Different versions or locations across the clusters that register it (`drift-across-clusters`). */
  drift: { versions: string[]; locations: string[]; drifting: boolean };
  findings: Finding[];
  users: PluginUserRow[];
}

function entriesOf(overview: PluginsOverview, name: string): PluginEntryRow[] {
  const entries: PluginEntryRow[] = [];
  for (const cluster of overview.clusters) {
    for (const p of cluster.plugins.filter((p) => p.name === name)) {
      entries.push({
        cluster: cluster.cluster,
        kind: p.kind,
        state: "registered",
        version: p.version,
        location: p.location,
        sha256: p.sha256 !== null,
        args: p.args,
        disabled: p.disabled,
      });
    }
    for (const u of cluster.unregistered.filter((u) => u.name === name)) {
      const invalid = cluster.entryErrors.some((e) => e.kind === u.kind && e.name === name);
      entries.push({
        cluster: cluster.cluster,
        kind: u.kind,
        state: invalid ? "invalid" : "referenced-not-registered",
        version: null,
        location: null,
        sha256: false,
        args: [],
        disabled: false,
      });
    }
  }
  return entries;
}

function usersOf(overview: PluginsOverview, name: string): PluginUserRow[] {
  const users = new Map<string, PluginUserRow>();
  const add = (
    cluster: string,
    registered: boolean,
    u: { kind: ReferencingKind; namespace: string | null; name: string; viaTemplate: string | null },
  ) => {
    const key = `${cluster}/${u.kind}/${u.namespace ?? ""}/${u.name}`;
    if (!users.has(key))
      users.set(key, { cluster, kind: u.kind, namespace: u.namespace, name: u.name, viaTemplate: u.viaTemplate, registered });
  };
  for (const cluster of overview.clusters) {
    for (const p of cluster.plugins.filter((p) => p.name === name)) p.usedBy.forEach((u) => add(cluster.cluster, true, u));
    for (const u of cluster.unregistered.filter((u) => u.name === name)) u.usedBy.forEach((user) => add(cluster.cluster, false, user));
  }
  return [...users.values()].sort(
    (a, b) => a.cluster.localeCompare(b.cluster) || (a.namespace ?? "").localeCompare(b.namespace ?? "") || a.name.localeCompare(b.name),
  );
}

/**
 * Everything the overview knows about one plugin, across clusters: its registry entries, whether they drift,
 * the findings that name it and the resources that use it. Null when no cluster registers or references it.
 */
export function describePluginPage(overview: PluginsOverview, name: string): PluginPage | null {
  const entries = entriesOf(overview, name);
  if (entries.length === 0) return null;
  const registered = entries.filter((e) => e.state === "registered");
  const versions = [...new Set(registered.map((e) => e.version ?? "unknown"))].sort();
  const locations = [...new Set(registered.flatMap((e) => (e.location ? [e.location] : [])))].sort();
  return {
    name,
    kinds: [...new Set(entries.map((e) => e.kind))],
    entries,
    drift: { versions, locations, drifting: versions.length > 1 || locations.length > 1 },
    findings: overview.findings.filter((f) => f.affected.some((a) => a.plugin === name)),
    users: usersOf(overview, name),
  };
}
