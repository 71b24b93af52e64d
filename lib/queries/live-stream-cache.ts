import type { QueryClient } from "@tanstack/react-query";
import type { ClusterStateView } from "@/lib/fleet/types";
import type { LiveDelta, LiveSnapshot } from "@/lib/live/live-types";
import { patchFleetPage, type FleetPage } from "@/lib/overview/fleet-page";
import type { RolloutDetail } from "@/lib/rollouts/detail-types";
import { parseRolloutKey, queryKeys } from "./query-keys";
import { recentDeltasOf } from "./recent-deltas";
import type { ClusterDetailResponse } from "./use-cluster";
import type { ClusterListResponse } from "./use-clusters";

/*
 * How the /api/stream feed lands in the React Query cache (the only client store):
 * - overview pages patch the rows they hold in place, then ask the server again (throttled) for counts and for
 *   which rows belong on the page now;
 * - cluster states are patched wherever a cached response holds one;
 * - detail, history and per-cluster counts are richer than a delta, so they are invalidated (refetched if shown).
 */

/** How often an overview page asks again while rollouts keep changing. */
export const FLEET_REFRESH_MS = 2_000;

/**
 * Writes a stream's first message. `resync` is true when it replaces a stream we lost, so anything derived may be
 * stale; an overview page older than the snapshot may have missed deltas before the stream opened.
 */
export function writeLiveSnapshot(client: QueryClient, snapshot: LiveSnapshot, resync: boolean): void {
  recentDeltasOf(client).reset(snapshot.seq);
  client.setQueryData<ClusterListResponse>(queryKeys.clusters(), { clusters: snapshot.clusters });
  patchClusterStates(client, snapshot.clusters);
  if (resync) {
    void client.invalidateQueries({ queryKey: queryKeys.fleet() });
    void client.invalidateQueries({ queryKey: queryKeys.rollouts() });
    void client.invalidateQueries({ queryKey: queryKeys.clusterPrefix() });
  } else {
    // A page still loading checks the stream's start itself (useFleetPage); cancelling it could starve a slow server.
    void client.invalidateQueries(
      { queryKey: queryKeys.fleet(), predicate: (q) => q.state.data !== undefined && (q.state.data as FleetPage).seq < snapshot.seq },
      { cancelRefetch: false },
    );
  }
}

export type Invalidate = (queryKey: readonly unknown[], intervalMs?: number) => void;

/** How soon to look again when a change arrives while the key's previous refetch is still running. */
const BUSY_RETRY_MS = 250;

/**
 * Invalidates a key at most once per `intervalMs`, with a trailing call for changes that arrived in between. A
 * rollout that changes many times a second thus refetches about once a second; the first change after a quiet spell
 * still goes out at once. A refetch in flight is never cancelled: on a slow server, cancelling would restart the same
 * request every interval and nothing would ever load. The change is asked for once that request has finished.
 */
export function createThrottledInvalidate(client: QueryClient, defaultIntervalMs = 1_000): { invalidate: Invalidate; dispose: () => void } {
  const last = new Map<string, number>();
  const trailing = new Map<string, ReturnType<typeof setTimeout>>();
  const later = (id: string, queryKey: readonly unknown[], wait: number) => {
    trailing.set(
      id,
      setTimeout(() => {
        trailing.delete(id);
        run(id, queryKey);
      }, wait),
    );
  };
  const run = (id: string, queryKey: readonly unknown[]) => {
    if (client.isFetching({ queryKey }) > 0) return later(id, queryKey, BUSY_RETRY_MS);
    last.set(id, Date.now());
    void client.invalidateQueries({ queryKey });
  };
  return {
    invalidate(queryKey, intervalMs = defaultIntervalMs) {
      const id = JSON.stringify(queryKey);
      if (trailing.has(id)) return;
      const wait = (last.get(id) ?? 0) + intervalMs - Date.now();
      if (wait <= 0) return run(id, queryKey);
      later(id, queryKey, wait);
    },
    dispose() {
      for (const timer of trailing.values()) clearTimeout(timer);
      trailing.clear();
    },
  };
}

/** Applies one batch of deltas. */
export function writeLiveDeltas(
  client: QueryClient,
  deltas: LiveDelta[],
  invalidate: Invalidate = (queryKey) => void client.invalidateQueries({ queryKey }),
): void {
  if (deltas.length === 0) return;
  for (const [queryKey, page] of client.getQueriesData<FleetPage>({ queryKey: queryKeys.fleet() })) {
    if (!page) continue;
    const patched = patchFleetPage(page, deltas);
    if (patched !== page) client.setQueryData(queryKey, patched);
  }

  const clusterStates = new Map<string, ClusterStateView>();
  const touched = new Map<string, { cluster: string; namespace: string; name: string }>();
  for (const delta of deltas) {
    if (delta.type === "cluster") {
      clusterStates.set(delta.cluster.name, delta.cluster);
    } else if (delta.type === "upsert") {
      const { key, cluster, namespace, name } = delta.rollout;
      touched.set(key, { cluster, namespace, name });
    } else {
      const parts = parseRolloutKey(delta.key);
      if (parts) touched.set(delta.key, parts);
    }
  }
  if (clusterStates.size > 0) {
    const states = [...clusterStates.values()];
    client.setQueryData<ClusterListResponse>(queryKeys.clusters(), (old) => old && { clusters: mergeClusters(old.clusters, states) });
    patchClusterStates(client, states);
  }
  const clustersWithChanges = new Set<string>();
  for (const { cluster, namespace, name } of touched.values()) {
    clustersWithChanges.add(cluster);
    invalidate(queryKeys.rollout(cluster, namespace, name));
  }
  for (const cluster of clustersWithChanges) invalidate(queryKeys.cluster(cluster));
  if (touched.size > 0) invalidate(queryKeys.fleet(), FLEET_REFRESH_MS);
}

function mergeClusters(current: ClusterStateView[], updates: ClusterStateView[]): ClusterStateView[] {
  const byName = new Map(current.map((c) => [c.name, c]));
  for (const update of updates) byName.set(update.name, update);
  return [...byName.values()];
}

function patchClusterStates(client: QueryClient, states: ClusterStateView[]): void {
  for (const state of states) {
    client.setQueryData<ClusterDetailResponse>(queryKeys.cluster(state.name), (old) => old && { ...old, cluster: state });
    client.setQueriesData<RolloutDetail>(
      { queryKey: queryKeys.rollouts(), predicate: (q) => q.queryKey[1] === state.name && q.queryKey[4] === "detail" },
      (old) => old && { ...old, cluster: state },
    );
  }
}
