import type { RolloutSummary } from "./rollout-summary";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { LiveDelta } from "@/lib/contracts/stream";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import { attentionSeverityOf, buildAttentionQueue, compareAttention, type AttentionEntry } from "./attention";
import {
  countByPhase,
  filterRollouts,
  listFacets,
  PAGE_SIZE,
  pageCount,
  sortRollouts,
  type FleetFacets,
  type FleetFilterFields,
  type FleetView,
} from "./fleet-query";

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
  /** The filters this page was built for: live updates decide with them which rollouts join its queue. */
  filter: FleetFilterFields;
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
  const pages = pageCount(matching.length, pageSize);
  const page = Math.min(Math.max(1, request.page), pages);
  const attention = buildAttentionQueue(base);
  return {
    rows: sortRollouts(matching, sort, dir, page * pageSize).slice((page - 1) * pageSize),
    page,
    pageCount: pages,
    pageSize,
    matched: matching.length,
    base: base.length,
    total: all.length,
    counts: countByPhase(base),
    attention: {
      entries: attention.slice(0, ATTENTION_LIMIT),
      total: attention.length,
      critical: attention.filter((e) => e.severity === "critical").length,
    },
    facets: listFacets(all, cluster),
    filter: { q: request.q, cluster: request.cluster, namespace: request.namespace, phase: request.phase, router: request.router },
    clusters,
    seq,
    generatedAt: now.toISOString(),
  };
}

/**
 * Applies live deltas to a page the browser holds, so what it shows stays true between the server's answers:
 * rows on it take their new state at once (deletes drop them); the attention queue takes in, drops and re-sorts
 * the rollouts that match the page's filters and recounts itself and the phase counts from each delta's previous
 * state; cluster states are replaced. Which rows belong on the table page stays the server's call, asked again
 * shortly after (see live-stream-cache).
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
  let next = current;
  if (current.rows.some((r) => upserts.has(r.key) || deleted.has(r.key))) {
    next = { ...next, rows: current.rows.filter((r) => !deleted.has(r.key)).map((r) => upserts.get(r.key) ?? r) };
  }
  if (upserts.size > 0 || deleted.size > 0) next = recount(next, deltas);
  if (clusters.size > 0) {
    next = { ...next, clusters: current.clusters.map((c) => clusters.get(c.name) ?? c) };
  }
  return next;
}

/** Counts and the attention queue after the rollout deltas, in their order. */
function recount(page: FleetPage, deltas: LiveDelta[]): FleetPage {
  const filter = page.filter;
  const complete = page.attention.entries.length >= page.attention.total;
  const entries = new Map(page.attention.entries.map((e) => [e.rollout.key, e]));
  let { total: attentionTotal, critical } = page.attention;
  let { base, total } = page;
  const counts = { ...page.counts };
  // A rollout of the page's cluster and namespace whose other filters can't be told from the delta alone.
  const exact = !filter.q && !filter.router;
  for (const delta of deltas) {
    if (delta.type === "cluster") continue;
    const key = delta.type === "upsert" ? delta.rollout.key : delta.key;
    const rollout = delta.type === "upsert" ? delta.rollout : null;
    const matches = rollout ? filterRollouts([rollout], filter, { ignorePhase: true }).length === 1 : false;
    const was = delta.was;
    if (was === null) total += 1;
    if (!rollout) total -= 1;
    // Its previous state counted on this page when it matched (an entry, or by the filters that can be read).
    const counted = was ? entries.has(key) || (exact ? withinScope(key, filter) : matches) : false;
    if (was && counted) {
      counts[was.phase] -= 1;
      base -= 1;
      if (was.attention) attentionTotal -= 1;
      if (was.attention === "critical") critical -= 1;
    }
    entries.delete(key);
    if (was === undefined) {
      // A delta without its previous state: only the entries shown can be kept true.
      if (rollout && matches) addEntry(entries, rollout);
      continue;
    }
    if (!rollout || !matches) continue;
    counts[rollout.phase] += 1;
    base += 1;
    const severity = attentionSeverityOf(rollout);
    if (severity) attentionTotal += 1;
    if (severity === "critical") critical += 1;
    addEntry(entries, rollout);
  }
  const sorted = [...entries.values()].sort(compareAttention);
  // A truncated queue stays the most urgent ATTENTION_LIMIT; a complete one stays complete.
  const shown = complete ? sorted : sorted.slice(0, ATTENTION_LIMIT);
  if (complete) {
    attentionTotal = shown.length;
    critical = shown.filter((e) => e.severity === "critical").length;
  }
  const attention = { entries: shown, total: Math.max(shown.length, attentionTotal), critical: Math.max(0, critical) };
  const next = { base: Math.max(0, base), total: Math.max(0, total), counts: clampCounts(counts) };
  // Unchanged parts keep their identity, so nothing re-renders for a change the page does not show.
  const sameAttention =
    sameList(attention.entries, page.attention.entries) &&
    attention.total === page.attention.total &&
    attention.critical === page.attention.critical;
  const sameCounts = PHASE_KEYS(next.counts).every((phase) => next.counts[phase] === page.counts[phase]);
  if (sameAttention && sameCounts && next.base === page.base && next.total === page.total) return page;
  return { ...page, ...next, counts: sameCounts ? page.counts : next.counts, attention: sameAttention ? page.attention : attention };
}

const PHASE_KEYS = (counts: Record<RolloutPhase, number>) => Object.keys(counts) as RolloutPhase[];

function sameList<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function addEntry(entries: Map<string, AttentionEntry>, rollout: RolloutSummary): void {
  const [entry] = buildAttentionQueue([rollout]);
  if (entry) entries.set(rollout.key, entry);
}

/** Whether a key is of the filter's cluster and namespace (the only filters besides q and router). */
function withinScope(key: string, filter: FleetFilterFields): boolean {
  const [cluster, namespace] = key.split("/");
  return (!filter.cluster || cluster === filter.cluster) && (!filter.namespace || namespace === filter.namespace);
}

function clampCounts(counts: Record<RolloutPhase, number>): Record<RolloutPhase, number> {
  return Object.fromEntries(Object.entries(counts).map(([phase, n]) => [phase, Math.max(0, n)])) as Record<RolloutPhase, number>;
}
