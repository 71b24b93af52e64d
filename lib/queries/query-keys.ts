import type { HistoryRange } from "@/lib/rollouts/detail-types";

/**
 * Every React Query key of the app, from one factory. Keys nest so that one prefix invalidates everything
 * about a rollout (detail and every history range) when the live stream reports a change to it.
 */
export const queryKeys = {
  /** Every overview page; a page is keyed by its view's query string. */
  fleet: () => ["fleet"] as const,
  fleetPage: (query: string) => ["fleet", query] as const,
  rollouts: () => ["rollout"] as const,
  rollout: (cluster: string, namespace: string, name: string) => ["rollout", cluster, namespace, name] as const,
  rolloutDetail: (cluster: string, namespace: string, name: string) =>
    [...queryKeys.rollout(cluster, namespace, name), "detail"] as const,
  rolloutHistory: (cluster: string, namespace: string, name: string, range: HistoryRange) =>
    [...queryKeys.rollout(cluster, namespace, name), "history", range] as const,
  clusters: () => ["clusters"] as const,
  cluster: (name: string) => ["cluster", name] as const,
  clusterPrefix: () => ["cluster"] as const,
  readiness: () => ["readiness"] as const,
};

/**
 * Splits a fleet key (`cluster/namespace/name`) back into its parts. Namespace and name are DNS labels and never
 * contain "/", so everything before them is the cluster, whatever it is called.
 */
export function parseRolloutKey(key: string): { cluster: string; namespace: string; name: string } | null {
  const nameAt = key.lastIndexOf("/");
  const namespaceAt = nameAt > 0 ? key.lastIndexOf("/", nameAt - 1) : -1;
  if (namespaceAt < 0) return null;
  return { cluster: key.slice(0, namespaceAt), namespace: key.slice(namespaceAt + 1, nameAt), name: key.slice(nameAt + 1) };
}
