import type { WatchState } from "@/lib/k8s/resource-watch";
import type { ClusterConnection } from "@/lib/contracts/clusters";

const CONNECTION_RANK: Record<ClusterConnection, number> = {
  connected: 0,
  connecting: 1,
  reconnecting: 2,
  forbidden: 3,
  unreachable: 4,
};

export interface ClusterConnectionSummary {
  connection: ClusterConnection;
  since: string;
  error: string | null;
}

/**
 * A cluster's headline connection from its watches: the worst of them, so it reads "connected" only when every
 * watch is (a watch not started yet counts as connecting). Connected since the last watch connected; otherwise since
 * the first watch in the worst state got there. The error is the main watch's (the first kind, Rollouts) when it is
 * among the worst, otherwise that first watch's, named by its kind.
 */
export function summarizeClusterConnection<K extends string>(
  kinds: readonly K[],
  states: ReadonlyMap<K, WatchState>,
  now: string,
): ClusterConnectionSummary {
  const watches = kinds.map((kind) => ({ kind, state: states.get(kind) ?? { status: "connecting" as const, since: now } }));
  const worstRank = Math.max(...watches.map((w) => CONNECTION_RANK[w.state.status]));
  const worst = watches.filter((w) => CONNECTION_RANK[w.state.status] === worstRank);
  const connected = worst[0].state.status === "connected";
  const first = worst.reduce((a, b) => ((connected ? b.state.since > a.state.since : b.state.since < a.state.since) ? b : a));
  const named = worst[0].kind === kinds[0] ? worst[0] : first;
  const error = "error" in named.state ? named.state.error : null;
  return {
    connection: first.state.status,
    since: first.state.since,
    error: error === null || named.kind === kinds[0] ? error : `${named.kind}: ${error}`,
  };
}
