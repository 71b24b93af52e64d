import type { QueryClient } from "@tanstack/react-query";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { FleetPage } from "@/lib/contracts/fleet-page";
import type { RolloutDetail } from "@/lib/contracts/rollout-detail";
import type { FocusedRollout, LiveDelta, LiveSnapshot } from "@/lib/contracts/stream";
import { patchFleetPage } from "@/lib/overview/fleet-page";
import { recordedSignatureOf } from "@/lib/rollouts/recorded-sample";
import { parseRolloutKey, type RolloutRef } from "@/lib/rollouts/rollout-ref";
import { queryKeys } from "./keys";
import { recentDeltasOf } from "./recent-deltas";
import { clusterQuery } from "./use-cluster";
import { clustersQuery } from "./use-clusters";
import { liveActionFingerprintQuery, rolloutActionsQuery } from "./use-rollout-actions";
import { rolloutDetailQuery } from "./use-rollout-detail";

/*
 * How the /api/stream feed lands in the React Query cache (the only client store):
 * - overview pages patch the rows they hold in place, then ask the server again (throttled) for counts and for
 *   which rows belong on the page now;
 * - cluster states are patched wherever a cached response holds one;
 * - an open detail page's Rollout is focused: its whole live view arrives as a `rollout` event and is written into
 *   the detail query with no request; events, revisions and history are asked for again only when a recorded field
 *   changed (at most every 5 s), the action buttons only when the state they depend on changed;
 * - per-cluster counts are invalidated; details no page shows are only marked stale (fetched when next shown).
 */

/** How often an open detail page asks again for its records (events, revisions, history) while they keep changing. */
const RECORDS_REFRESH_MS = 5_000;

/** How often an overview page asks again while rollouts keep changing. */
const FLEET_REFRESH_MS = 2_000;

/**
 * Writes a stream's first message. `resync` is true when it replaces a stream we lost, so anything derived may be
 * stale; an overview page older than the snapshot may have missed deltas before the stream opened.
 */
export function writeLiveSnapshot(client: QueryClient, snapshot: LiveSnapshot, resync: boolean): void {
  recentDeltasOf(client).reset(snapshot.seq);
  client.setQueryData(clustersQuery().queryKey, { clusters: snapshot.clusters });
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

/** Applies one batch of deltas; `focused` are the keys whose `rollout` events keep their detail current. */
export function writeLiveDeltas(
  client: QueryClient,
  deltas: LiveDelta[],
  invalidate: Invalidate = (queryKey) => void client.invalidateQueries({ queryKey }),
  focused: ReadonlySet<string> = new Set(),
): void {
  if (deltas.length === 0) return;
  for (const [queryKey, page] of client.getQueriesData<FleetPage>({ queryKey: queryKeys.fleet() })) {
    if (!page) continue;
    const patched = patchFleetPage(page, deltas);
    if (patched !== page) client.setQueryData(queryKey, patched);
  }

  const clusterStates = new Map<string, ClusterStateView>();
  const touched = new Map<string, RolloutRef>();
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
    client.setQueryData(clustersQuery().queryKey, (old) => old && { clusters: mergeClusters(old.clusters, states) });
    patchClusterStates(client, states);
  }
  const clustersWithChanges = new Set<string>();
  for (const [key, rollout] of touched) {
    clustersWithChanges.add(rollout.cluster);
    // A focused Rollout is kept current by its `rollout` events. Of the others only action buttons can be on screen
    // (the attention queue): they are asked for again, throttled; the rest is fetched when next shown.
    if (focused.has(key)) continue;
    invalidate(rolloutActionsQuery(rollout).queryKey);
    void client.invalidateQueries({ queryKey: queryKeys.rollout(rollout), refetchType: "none" });
  }
  for (const cluster of clustersWithChanges) invalidate(clusterQuery(cluster).queryKey);
  if (touched.size > 0) invalidate(queryKeys.fleet(), FLEET_REFRESH_MS);
}

/** The ReplicaSets of an open detail page are read again at most this often on the Rollout's own changes. */
const WORKLOAD_MIN_INTERVAL_MS = 1_000;

/**
 * The recorder writes a change a moment after the watch delivered it (every 250 ms; seconds later on a busy server),
 * so records read at once may not hold it yet, and a Rollout that then stands still (a pause) sends no further
 * change: they are asked for at once and once more RECORDS_REFRESH_MS later (the second call, within the interval,
 * is the throttle's trailing call), never more often.
 */
function refreshRecords(invalidate: Invalidate, queryKey: readonly unknown[]): void {
  invalidate(queryKey, RECORDS_REFRESH_MS);
  invalidate(queryKey, RECORDS_REFRESH_MS);
}

/**
 * Writes a focused Rollout's live view into its detail query (no request). Its records (events, analysis runs,
 * revisions, the recorded timeline) are asked for again when a recorded field changed (see refreshRecords); its
 * action buttons when the state their options were computed from changed.
 */
export function writeFocusedRollout(client: QueryClient, focused: FocusedRollout, invalidate: Invalidate): void {
  const detailKey = rolloutDetailQuery(focused.ref).queryKey;
  const cached = client.getQueryData(detailKey);
  if (!focused.rollout) {
    // Deleted (or not yet listed): the detail route says which.
    if (cached) invalidate(detailKey);
    return;
  }
  // Not found when the page read it (a link to a Rollout being created, a server that had not seen it yet): it
  // exists now, so the page reads it again instead of saying "not found" until reloaded.
  if (!cached && client.getQueryState(detailKey)?.status === "error") invalidate(detailKey);
  if (cached) {
    const recordedChanged = recordedSignatureOf(cached.rollout) !== recordedSignatureOf(focused.rollout);
    client.setQueryData(detailKey, { ...cached, rollout: focused.rollout });
    // The ReplicaSets and Pods follow the Rollout's changes too (and a timer, for pod-only changes).
    if (cached.rollout.resourceVersion !== focused.rollout.resourceVersion)
      invalidate(queryKeys.rolloutWorkload(focused.ref), WORKLOAD_MIN_INTERVAL_MS);
    if (recordedChanged) {
      refreshRecords(invalidate, detailKey);
      refreshRecords(invalidate, queryKeys.rolloutHistories(focused.ref));
    }
  }
  client.setQueryData(liveActionFingerprintQuery(focused.ref).queryKey, focused.actionFingerprint);
  const actionsKey = rolloutActionsQuery(focused.ref).queryKey;
  const actions = client.getQueryData(actionsKey);
  // A first read still on its way may have been computed before this change: it is asked for again once it is back
  // (the throttle waits for a read in flight), or the buttons would keep the older state until the next change.
  const stale = actions ? actions.expected.fingerprint !== focused.actionFingerprint : client.isFetching({ queryKey: actionsKey }) > 0;
  if (stale) invalidate(actionsKey);
}

function mergeClusters(current: ClusterStateView[], updates: ClusterStateView[]): ClusterStateView[] {
  const byName = new Map(current.map((c) => [c.name, c]));
  for (const update of updates) byName.set(update.name, update);
  return [...byName.values()];
}

function patchClusterStates(client: QueryClient, states: ClusterStateView[]): void {
  for (const state of states) {
    client.setQueryData(clusterQuery(state.name).queryKey, (old) => old && { ...old, cluster: state });
    // Details are matched by the cluster they hold, not by where the cluster sits in their key.
    for (const [queryKey, data] of client.getQueriesData<unknown>({ queryKey: queryKeys.rollouts() })) {
      if (isRolloutDetail(data) && data.cluster.name === state.name) client.setQueryData(queryKey, { ...data, cluster: state });
    }
  }
}

function isRolloutDetail(data: unknown): data is RolloutDetail {
  return (
    typeof data === "object" &&
    data !== null &&
    "rollout" in data &&
    "cluster" in data &&
    typeof (data as RolloutDetail).cluster === "object"
  );
}
