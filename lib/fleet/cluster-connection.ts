import type { WatchState } from "@/lib/k8s/resource-watch";
import type { ClusterConnection } from "./types";

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
 * the first watch in the worst state got there, with that watch's error, named by its kind unless it is the first
 * kind (the cluster's main watch: Rollouts).
 */
export function summarizeClusterConnection<K extends string>(kinds: readonly K[], states: ReadonlyMap<K, WatchState>, now: string): ClusterConnectionSummary {
  const watches = kinds.map((kind) => ({ kind, state: states.get(kind) ?? { status: "connecting" as const, since: now } }));
  const worstRank = Math.max(...watches.map((w) => CONNECTION_RANK[w.state.status]));
  const worst = watches.filter((w) => CONNECTION_RANK[w.state.status] === worstRank);
  const connected = worst[0].state.status === "connected";
  const deciding = worst.reduce((a, b) => ((connected ? b.state.since > a.state.since : b.state.since < a.state.since) ? b : a));
  const error = "error" in deciding.state ? deciding.state.error : null;
  return {
    connection: deciding.state.status,
    since: deciding.state.since,
    error: error === null || deciding.kind === kinds[0] ? error : `${deciding.kind}: ${error}`,
  };
}
