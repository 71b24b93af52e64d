import type { RolloutSummary } from "@/lib/fleet/summary";
import type { ClusterStateView } from "@/lib/fleet/types";
import type { AttentionSeverity } from "@/lib/overview/attention";
import type { RolloutPhase } from "@/lib/rollouts/phase";

/*
 * The contract of `/api/stream`, shared by the server (lib/live/delta-log) and the browser (lib/queries/live-stream).
 * It carries overview rows and cluster states, never raw objects or credentials.
 */

/**
 * How the Rollout stood before this change (null: it is new), so an open overview can recount its phases and its
 * attention queue exactly, even for Rollouts the page does not hold.
 */
export interface PreviousState {
  phase: RolloutPhase;
  attention: AttentionSeverity | null;
}

export type LiveDelta =
  | { type: "upsert"; rollout: RolloutSummary; was?: PreviousState | null }
  | { type: "delete"; key: string; was?: PreviousState | null }
  | { type: "cluster"; cluster: ClusterStateView };

/**
 * The first message of a stream: cluster states and the sequence number the deltas continue from. Rows are not in
 * it; the overview asks `/api/rollouts` for the page it shows.
 */
export interface LiveSnapshot {
  clusters: ClusterStateView[];
  seq: number;
}
