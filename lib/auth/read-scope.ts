import { createHash } from "node:crypto";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { parseRolloutKey } from "@/lib/rollouts/rollout-ref";

/**
 * What one user may read in one cluster, as the cluster's RBAC (or the role mapping) says: the Rollouts of every
 * namespace, of some, or of none — with why, when the check itself failed.
 */
export type ClusterReadScope =
  | { readonly kind: "all" }
  | { readonly kind: "namespaces"; readonly namespaces: ReadonlySet<string> }
  | { readonly kind: "none"; readonly error: string | null };

/** What one user may read across the fleet; `clusters: null` is everything (auth mode none). */
export interface ReadScope {
  readonly clusters: ReadonlyMap<string, ClusterReadScope> | null;
  /** Equal for users who may read exactly the same, so they can share computed pages. */
  readonly fingerprint: string;
}

export const FULL_READ_SCOPE: ReadScope = { clusters: null, fingerprint: "all" };

function describe(scope: ClusterReadScope): unknown {
  if (scope.kind === "namespaces") return [...scope.namespaces].sort();
  return scope.kind === "none" ? ["none", scope.error] : "all";
}

export function createReadScope(clusters: Iterable<readonly [string, ClusterReadScope]>): ReadScope {
  const map = new Map(clusters);
  const canonical = JSON.stringify([...map].sort(([a], [b]) => a.localeCompare(b)).map(([name, scope]) => [name, describe(scope)]));
  return { clusters: map, fingerprint: createHash("sha256").update(canonical).digest("base64url").slice(0, 22) };
}

/** Whether the user may read the Rollouts of this namespace; a cluster the scope does not name is unreadable. */
export function canReadNamespace(scope: ReadScope, cluster: string, namespace: string): boolean {
  if (scope.clusters === null) return true;
  const inCluster = scope.clusters.get(cluster);
  if (!inCluster || inCluster.kind === "none") return false;
  return inCluster.kind === "all" || inCluster.namespaces.has(namespace);
}

/** As {@link canReadNamespace}; `namespace: null` is a cluster-scoped object, readable with every namespace only. */
export function canReadObject(scope: ReadScope, cluster: string, namespace: string | null): boolean {
  if (namespace !== null) return canReadNamespace(scope, cluster, namespace);
  return scope.clusters === null || scope.clusters.get(cluster)?.kind === "all";
}

/** The same for a fleet key (`cluster/namespace/name`). */
export function canReadRolloutKey(scope: ReadScope, key: string): boolean {
  if (scope.clusters === null) return true;
  const ref = parseRolloutKey(key);
  return ref !== null && canReadNamespace(scope, ref.cluster, ref.namespace);
}

/** The rows the user may read; the very same array when the scope is everything. */
export function filterReadable<T extends { readonly cluster: string; readonly namespace: string }>(scope: ReadScope, rows: T[]): T[] {
  if (scope.clusters === null) return rows;
  return rows.filter((row) => canReadNamespace(scope, row.cluster, row.namespace));
}

/**
 * A cluster's state as this user sees it: its Rollout count over the namespaces they may read (`counts`: per
 * namespace) and, when their permissions could not be checked, why its Rollouts are hidden.
 */
export function scopeClusterState(scope: ReadScope, state: ClusterStateView, counts: ReadonlyMap<string, number>): ClusterStateView {
  if (scope.clusters === null) return state;
  const inCluster = scope.clusters.get(state.name);
  if (inCluster?.kind === "all") return state;
  if (inCluster?.kind === "namespaces") {
    let rolloutCount = 0;
    for (const namespace of inCluster.namespaces) rolloutCount += counts.get(namespace) ?? 0;
    return { ...state, rolloutCount };
  }
  const error = inCluster?.error ?? null;
  return error === null ? { ...state, rolloutCount: 0 } : { ...state, rolloutCount: 0, readError: error };
}
