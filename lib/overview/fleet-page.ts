import type { RolloutSummary } from "@/lib/fleet/summary";
import type { ClusterStateView } from "@/lib/fleet/types";
import type { LiveDelta } from "@/lib/live/live-types";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import { buildAttentionQueue, type AttentionEntry } from "./attention";
import { countByPhase, filterRollouts, listFacets, PAGE_SIZE, pageCount, sortRollouts, type FleetFacets, type FleetView } from "./fleet-query";

/** The most attention entries one response carries; the queue says how many more there are. */
export const ATTENTION_LIMIT = 50;

/**
 * What `GET /api/rollouts` answers: one page of the filtered, sorted fleet plus everything the overview shows
 * around it (counts, attention queue, filter options, cluster states). The server does the filtering so the
 * browser never holds the whole fleet: at 5,000 Rollouts a response stays about one page long.
 */
export interface FleetPage {
  rows: RolloutSummary[];
  page: number;
  pageCount: number;
  pageSize: number;
  /** Rollouts matching every filter. */
  matched: number;
  /** Rollouts matching every filter but the phase: what the phase counts and the attention queue cover. */
  base: number;
  /** Every Rollout of every cluster. */
  total: number;
  counts: Record<RolloutPhase, number>;
  attention: { entries: AttentionEntry[]; total: number; critical: number };
  facets: FleetFacets;
  clusters: ClusterStateView[];
  /** The live stream's sequence number this page reflects: deltas after it are newer than the page. */
  seq: number;
  generatedAt: string;
}

/** A page the server rendered into the overview's HTML, with the view's query string (the browser's query key). */
export interface InitialFleetPage {
  query: string;
  page: FleetPage;
  /** When the server rendered it (epoch ms, whole seconds): relative times hydrate from it. */
  renderedAt: number;
}

export interface FleetPageRequest extends FleetView {
  pageSize: number;
}

/** Builds one page from every overview row; pure, so the server and the tests run the same code. */
export function buildFleetPage(
  all: RolloutSummary[],
  clusters: ClusterStateView[],
  request: FleetPageRequest,
  seq: number,
  now = new Date(),
): FleetPage {
  const { cluster, phase, sort, dir, pageSize = PAGE_SIZE } = request;
  const base = filterRollouts(all, request, { ignorePhase: true });
  const matching = phase ? base.filter((r) => r.phase === phase) : base;
  const sorted = sortRollouts(matching, sort, dir);
  const pages = pageCount(sorted.length, pageSize);
  const page = Math.min(Math.max(1, request.page), pages);
  const attention = buildAttentionQueue(base);
  return {
    rows: sorted.slice((page - 1) * pageSize, page * pageSize),
    page,
    pageCount: pages,
    pageSize,
    matched: sorted.length,
    base: base.length,
    total: all.length,
    counts: countByPhase(base),
    attention: {
      entries: attention.slice(0, ATTENTION_LIMIT),
      total: attention.length,
      critical: attention.filter((e) => e.severity === "critical").length,
    },
    facets: listFacets(all, cluster),
    clusters,
    seq,
    generatedAt: now.toISOString(),
  };
}

/**
 * Applies live deltas to a page the browser holds: rows and attention entries on it take their new state at once;
 * deletes drop them; cluster states are replaced. Rows the page does not hold are ignored: whether they now belong
 * on it (and the counts) is the server's call, asked again shortly after (see live-stream-cache).
 */
export function patchFleetPage(current: FleetPage, deltas: LiveDelta[]): FleetPage {
  const upserts = new Map<string, RolloutSummary>();
  const deleted = new Set<string>();
  const clusters = new Map<string, ClusterStateView>();
  for (const delta of deltas) {
    if (delta.type === "upsert") {
      upserts.set(delta.rollout.key, delta.rollout);
      deleted.delete(delta.rollout.key);
    } else if (delta.type === "delete") {
      deleted.add(delta.key);
      upserts.delete(delta.key);
    } else clusters.set(delta.cluster.name, delta.cluster);
  }
  const touches = (key: string) => upserts.has(key) || deleted.has(key);
  let next = current;
  if (current.rows.some((r) => touches(r.key))) {
    next = { ...next, rows: current.rows.filter((r) => !deleted.has(r.key)).map((r) => upserts.get(r.key) ?? r) };
  }
  if (current.attention.entries.some((e) => touches(e.rollout.key))) {
    const entries = current.attention.entries
      .filter((e) => !deleted.has(e.rollout.key))
      .flatMap((e) => {
        const rollout = upserts.get(e.rollout.key);
        return rollout ? buildAttentionQueue([rollout]) : [e];
      });
    next = { ...next, attention: { ...current.attention, entries } };
  }
  if (clusters.size > 0) {
    next = { ...next, clusters: current.clusters.map((c) => clusters.get(c.name) ?? c) };
  }
  return next;
}
