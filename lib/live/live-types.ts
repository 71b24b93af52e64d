import type { RolloutSummary } from "@/lib/fleet/summary";
import type { ClusterStateView } from "@/lib/fleet/types";

/*
 * The contract of `/api/stream`, shared by the server (lib/live/delta-log) and the browser (lib/queries/live-stream).
 * It carries overview rows and cluster states, never raw objects or credentials.
 */

export type LiveDelta =
  | { type: "upsert"; rollout: RolloutSummary }
  | { type: "delete"; key: string }
  | { type: "cluster"; cluster: ClusterStateView };

/**
 * The first message of a stream: cluster states and the sequence number the deltas continue from. Rows are not in
 * it; the overview asks `/api/rollouts` for the page it shows.
 */
export interface LiveSnapshot {
  clusters: ClusterStateView[];
  seq: number;
}
