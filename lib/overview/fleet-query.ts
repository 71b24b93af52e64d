import type { RolloutSummary } from "./rollout-summary";
import type { RolloutPhase } from "@/lib/rollouts/phase";

/** The overview's filter, sort and page state; it lives in the URL so views can be shared and survive reloads. */
export interface FleetView {
  q: string;
  cluster: string;
  namespace: string;
  phase: RolloutPhase | "";
  router: string;
  sort: FleetSortKey;
  dir: "asc" | "desc";
  page: number;
}

export const FLEET_SORT_KEYS = ["cluster", "namespace", "name", "strategy", "router", "phase", "step", "weight", "changed"] as const;
export type FleetSortKey = (typeof FLEET_SORT_KEYS)[number];

export const PHASES = ["Healthy", "Progressing", "Paused", "Degraded"] as const satisfies readonly RolloutPhase[];

export const DEFAULT_FLEET_VIEW: FleetView = {
  q: "",
  cluster: "",
  namespace: "",
  phase: "",
  router: "",
  sort: "cluster",
  dir: "asc",
  page: 1,
};

type ParamReader = { get(name: string): string | null };

export function parseFleetView(params: ParamReader): FleetView {
  const phase = params.get("phase") ?? "";
  const sort = params.get("sort") ?? "";
  const page = Number.parseInt(params.get("page") ?? "", 10);
  return {
    q: params.get("q") ?? "",
    cluster: params.get("cluster") ?? "",
    namespace: params.get("ns") ?? "",
    phase: (PHASES as readonly string[]).includes(phase) ? (phase as RolloutPhase) : "",
    router: params.get("router") ?? "",
    sort: (FLEET_SORT_KEYS as readonly string[]).includes(sort) ? (sort as FleetSortKey) : DEFAULT_FLEET_VIEW.sort,
    dir: params.get("dir") === "desc" ? "desc" : "asc",
    page: Number.isFinite(page) && page > 1 ? page : 1,
  };
}

/** The URL query for a view, leaving out defaults so a plain overview stays at `/`. */
export function serializeFleetView(view: FleetView): string {
  const params = new URLSearchParams();
  if (view.q) params.set("q", view.q);
  if (view.cluster) params.set("cluster", view.cluster);
  if (view.namespace) params.set("ns", view.namespace);
  if (view.phase) params.set("phase", view.phase);
  if (view.router) params.set("router", view.router);
  if (view.sort !== DEFAULT_FLEET_VIEW.sort || view.dir !== DEFAULT_FLEET_VIEW.dir) {
    params.set("sort", view.sort);
    params.set("dir", view.dir);
  }
  if (view.page > 1) params.set("page", String(view.page));
  return params.toString();
}

// Rows keep their identity across live updates unless they changed, so their search text is computed once.
const searchText = new WeakMap<RolloutSummary, string>();

function textOf(r: RolloutSummary): string {
  let text = searchText.get(r);
  if (text === undefined) {
    text = [r.key, r.message, r.strategy, r.phase, r.step.label ?? "", ...r.routers.map((x) => x.name), ...r.attention.map((a) => a.code)]
      .join("\n")
      .toLowerCase();
    searchText.set(r, text);
  }
  return text;
}

/** Applies the filters; `ignorePhase` gives the base set that phase counts and the attention queue are computed on. */
export type FleetFilterFields = Pick<FleetView, "q" | "cluster" | "namespace" | "phase" | "router">;

export function filterRollouts(rows: RolloutSummary[], view: FleetFilterFields, { ignorePhase = false } = {}): RolloutSummary[] {
  const terms = view.q.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter(
    (r) =>
      (!view.cluster || r.cluster === view.cluster) &&
      (!view.namespace || r.namespace === view.namespace) &&
      (ignorePhase || !view.phase || r.phase === view.phase) &&
      (!view.router || r.routers.some((x) => x.name === view.router)) &&
      (terms.length === 0 || terms.every((t) => textOf(r).includes(t))),
  );
}

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/**
 * A string whose plain `<` order is natural order ("search-2" before "search-10", case-insensitive). Sorting
 * 5,000 rows on precomputed keys is several times faster than calling a numeric Intl.Collator per comparison.
 */
export function naturalKey(value: string): string {
  return value.toLowerCase().replace(/\d+/g, (digits) => digits.padStart(12, "0"));
}

/** Most urgent first when sorting by phase ascending. */
const PHASE_RANK: Record<RolloutPhase, number> = { Degraded: 0, Paused: 1, Progressing: 2, Healthy: 3 };

function stepRatio(r: RolloutSummary): number {
  const { index, total } = r.step;
  if (!total) return -1;
  return (index ?? 0) / total;
}

const SEP = "\u0000";

const SORT_KEY: Record<FleetSortKey, (r: RolloutSummary) => string | number> = {
  cluster: (r) => naturalKey(`${r.cluster}${SEP}${r.namespace}${SEP}${r.name}`),
  namespace: (r) => naturalKey(`${r.namespace}${SEP}${r.name}`),
  name: (r) => naturalKey(r.name),
  strategy: (r) => r.strategy,
  router: (r) => naturalKey(r.routers.map((x) => x.name).join(",")),
  phase: (r) => PHASE_RANK[r.phase],
  step: stepRatio,
  weight: (r) => r.canaryPercent ?? -1,
  changed: (r) => Date.parse(r.lastChangedAt) || 0,
};

// Rows keep their identity across live updates unless they changed, so their tie-break key is computed once.
const tieKeys = new WeakMap<RolloutSummary, string>();

function tieKey(r: RolloutSummary): string {
  let key = tieKeys.get(r);
  if (key === undefined) {
    key = naturalKey(r.key);
    tieKeys.set(r, key);
  }
  return key;
}

const sortKeys = new WeakMap<RolloutSummary, Partial<Record<FleetSortKey, string | number>>>();

function sortKey(r: RolloutSummary, sort: FleetSortKey): string | number {
  let keys = sortKeys.get(r);
  if (!keys) {
    keys = {};
    sortKeys.set(r, keys);
  }
  return (keys[sort] ??= SORT_KEY[sort](r));
}

/** A sorted copy; ties fall back to the fleet key so the order is stable while rows update live. */
/** The rows in the view's order; `limit`: only the first that many (a page needs no more, and 20,000 rows are many). */
export function sortRollouts(rows: RolloutSummary[], sort: FleetSortKey, dir: "asc" | "desc", limit = rows.length): RolloutSummary[] {
  const sign = dir === "asc" ? 1 : -1;
  const decorated = rows.map((r) => ({ k: sortKey(r, sort), t: tieKey(r), r }));
  const ordered = firstInOrder(decorated, limit, (a, b) => (a.k < b.k ? -sign : a.k > b.k ? sign : a.t < b.t ? -1 : a.t > b.t ? 1 : 0));
  return ordered.map((d) => d.r);
}

/**
 * The first `limit` items in `compare` order, equal ones in their given order, as a stable sort would put them. A few
 * of many are picked in one pass over a short sorted list instead of sorting them all.
 */
function firstInOrder<T>(items: readonly T[], limit: number, compare: (a: T, b: T) => number): T[] {
  if (limit >= items.length / 4) return [...items].sort(compare).slice(0, limit);
  const first: T[] = [];
  for (const item of items) {
    if (first.length === limit && compare(item, first[limit - 1]) >= 0) continue;
    let low = 0;
    let high = first.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (compare(item, first[mid]) < 0) high = mid;
      else low = mid + 1;
    }
    first.splice(low, 0, item);
    if (first.length > limit) first.pop();
  }
  return first;
}

export function countByPhase(rows: RolloutSummary[]): Record<RolloutPhase, number> {
  const counts: Record<RolloutPhase, number> = { Healthy: 0, Progressing: 0, Paused: 0, Degraded: 0 };
  for (const r of rows) counts[r.phase] = (counts[r.phase] ?? 0) + 1;
  return counts;
}

export interface FleetFacets {
  clusters: string[];
  namespaces: string[];
  routers: string[];
}

/** Options for the filter selects; namespaces narrow to the chosen cluster. */
export function listFacets(rows: RolloutSummary[], cluster: string): FleetFacets {
  const clusters = new Set<string>();
  const namespaces = new Set<string>();
  const routers = new Set<string>();
  for (const r of rows) {
    clusters.add(r.cluster);
    if (!cluster || r.cluster === cluster) namespaces.add(r.namespace);
    for (const x of r.routers) routers.add(x.name);
  }
  const sorted = (s: Set<string>) => [...s].sort(collator.compare);
  return { clusters: sorted(clusters), namespaces: sorted(namespaces), routers: sorted(routers) };
}

/**
 * The requested weight worth comparing with the applied one. Once every step is done upstream reports the
 * maximum (GetCurrentSetWeight) while the router is back to 0% canary because stable now runs the new revision,
 * so a "requested 100%" marker there would be noise.
 */
export function comparableRequestedPercent(r: Pick<RolloutSummary, "requestedPercent" | "step">): number | null {
  const { index, total } = r.step;
  if (total > 0 && index !== null && index >= total) return null;
  return r.requestedPercent;
}

export const PAGE_SIZE = 100;

export function pageCount(total: number, pageSize = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
