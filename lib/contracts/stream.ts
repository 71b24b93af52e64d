import { z } from "zod";
import type { AttentionSeverity } from "@/lib/overview/attention";
import type { RolloutSummary } from "@/lib/overview/rollout-summary";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { ClusterStateView } from "./clusters";

/*
 * `GET /api/stream?focus=<cluster/ns/name>&rows=<scope>&since=<seq>`: one server-sent-event stream per tab.
 *   event `snapshot` (LiveSnapshot): cluster states and the sequence the deltas continue from;
 *   event `delta` (LiveDelta): an overview row, a deletion or a cluster state, numbered by `id:`;
 *   event `rollout` (FocusedRollout): the whole live view of a focused Rollout (an open detail page), sent when the
 *   stream opens and after every delta of that Rollout, so the page needs no request for a status change;
 *   event `position` (its data and `id:` a sequence number): how far the tab is current although no delta of its rows
 *   came, so a resume (Last-Event-ID or `since`) starts there rather than from the last delta it was sent.
 * `rows` says whose overview rows the tab holds: `*` (the default) every Rollout's, or a cluster's name (repeatable),
 * or `-` for none. Deltas of other Rollouts are not sent, but the focused Rollouts' and the cluster states always are: a
 * detail page alone does not take the whole fleet's changes (about 500 a second at 5,000 Rollouts).
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

/** The `rows` value for every Rollout's row (an overview of the fleet). */
export const ALL_ROWS = "*";
/**
 * The `rows` value for none (a detail page alone: its focused Rollout and the cluster states still come). Neither
 * value can be a cluster's name (lowercase letters, digits and '-', starting and ending with a letter or digit).
 */
export const NO_ROWS = "-";
/** At most this many clusters' rows by name; a tab showing more asks for all. */
const MAX_ROW_CLUSTERS = 16;

/** Whose overview rows a stream carries: all, none, or those of the named clusters (sorted, distinct). */
export type RowScope = typeof ALL_ROWS | typeof NO_ROWS | readonly string[];

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
  rows: z
    .array(z.string().min(1).max(253))
    .max(MAX_ROW_CLUSTERS)
    .transform((scopes): RowScope => {
      if (scopes.length === 0 || scopes.includes(ALL_ROWS)) return ALL_ROWS;
      const clusters = scopes.filter((s) => s !== NO_ROWS);
      return clusters.length === 0 ? NO_ROWS : [...new Set(clusters)].sort();
    }),
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

/** Whether `scope` holds every row `other` does (a stream of `other` can go on as one of `scope` without a gap). */
export function rowScopeCovers(scope: RowScope, other: RowScope): boolean {
  if (scope === ALL_ROWS || other === NO_ROWS) return true;
  if (other === ALL_ROWS || scope === NO_ROWS) return false;
  return other.every((cluster) => scope.includes(cluster));
}

export function streamPath(focus: readonly string[], since: number | null, rows: RowScope = ALL_ROWS): string {
  const params = new URLSearchParams();
  for (const key of focus) params.append("focus", key);
  if (rows !== ALL_ROWS) for (const value of rows === NO_ROWS ? [NO_ROWS] : rows) params.append("rows", value);
  if (since !== null) params.set("since", String(since));
  const text = params.toString();
  return text ? `/api/stream?${text}` : "/api/stream";
}

export function parseStreamQuery(params: URLSearchParams): StreamQuery {
  return StreamQuery.parse({ focus: params.getAll("focus"), rows: params.getAll("rows"), since: params.get("since") ?? undefined });
}
