import { z } from "zod";
import type { AttentionSeverity } from "@/lib/overview/attention";
import type { RolloutSummary } from "@/lib/overview/rollout-summary";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { ClusterStateView } from "./clusters";

/*
 * `GET /api/stream?focus=<cluster/ns/name>&since=<seq>`: one server-sent-event stream per tab.
 *   event `snapshot` (LiveSnapshot): cluster states and the sequence the deltas continue from;
 *   event `delta` (LiveDelta): an overview row, a deletion or a cluster state, numbered by `id:`;
 *   event `rollout` (FocusedRollout): the whole live view of a focused Rollout (an open detail page), sent when the
 *   stream opens and after every delta of that Rollout, so the page needs no request for a status change.
 * `since` resumes after a sequence number (as Last-Event-ID does for EventSource's own reconnects).
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

/** At most this many Rollouts are focused by one tab (a detail page focuses one). */
const MAX_FOCUSED = 8;

export const StreamQuery = z.object({
  focus: z
    .array(
      z
        .string()
        .regex(/^[^/]+(\/[^/]+){2,}$/, "focus is cluster/namespace/name")
        .max(600),
    )
    .max(MAX_FOCUSED)
    .default([]),
  since: z.string().regex(/^\d+$/, "since is a sequence number").optional(),
});
export type StreamQuery = z.infer<typeof StreamQuery>;

export interface FocusedRollout {
  ref: RolloutRef;
  /** null when the Rollout no longer exists. */
  rollout: FleetRollout | null;
  /** The `expected.fingerprint` the actions view would carry now: when it changes, the buttons are asked for again. */
  actionFingerprint: string | null;
}

export function streamPath(focus: readonly string[], since: number | null): string {
  const params = new URLSearchParams();
  for (const key of focus) params.append("focus", key);
  if (since !== null) params.set("since", String(since));
  const text = params.toString();
  return text ? `/api/stream?${text}` : "/api/stream";
}

export function parseStreamQuery(params: URLSearchParams): StreamQuery {
  return StreamQuery.parse({ focus: params.getAll("focus"), since: params.get("since") ?? undefined });
}
