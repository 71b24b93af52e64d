import "server-only";
import { filterReadable, FULL_READ_SCOPE, type ReadScope } from "@/lib/auth/read-scope";
import { buildFleetPage, type FleetPage, type FleetPageRequest, type InitialFleetPage } from "@/lib/overview/fleet-page";
import { PAGE_SIZE, parseFleetView, serializeFleetView } from "@/lib/overview/fleet-query";
import { serializeJson, type SerializedJson } from "@/lib/http/respond";
import type { DeltaLog } from "@/lib/live/delta-log";
import type { AppContext } from "@/lib/server/app-context";
import { listReadableClusterStates } from "./clusters";
import { renderTimeOf } from "./first-render";

/**
 * How long a computed page may be served again to other requests for the same view. Sorting and filtering 5,000 rows
 * takes 10–20 ms; during an incident many people open the same overview, and a page up to a second old loses nothing:
 * it carries the stream sequence number it reflects and browsers replay newer deltas on top, and they ask for the
 * page again at most every 2 s anyway. The JSON text is kept with it, so a shared answer costs no serialization.
 * Pages are shared between users who may read exactly the same (keyed by the scope's fingerprint), never beyond.
 */
const SHARE_MS = 1_000;
const MAX_SHARED = 64;

interface SharedPage {
  page: FleetPage;
  at: number;
  json?: SerializedJson<FleetPage>;
}

/** Shared pages per delta log, so a context of its own (a test's) never sees another's rows. */
const sharedByLog = new WeakMap<DeltaLog, Map<string, SharedPage>>();

function sharedFleetPage(app: AppContext, { request, scope }: FleetPageInput): SharedPage {
  const log = app.deltaLog;
  let shared = sharedByLog.get(log);
  if (!shared) sharedByLog.set(log, (shared = new Map()));
  const now = app.now();
  const key = `${scope.fingerprint} ${JSON.stringify(request)}`;
  const hit = shared.get(key);
  if (hit && (hit.page.seq === log.lastSeq || now - hit.at < SHARE_MS)) return hit;
  const rows = filterReadable(scope, log.rows());
  const entry: SharedPage = { page: buildFleetPage(rows, listReadableClusterStates(app, scope), request, log.lastSeq), at: now };
  shared.delete(key);
  shared.set(key, entry);
  if (shared.size > MAX_SHARED) shared.delete(shared.keys().next().value!);
  return entry;
}

export interface FleetPageInput {
  request: FleetPageRequest;
  /** What the user may read: the page, its counts, facets and cluster states cover only that. */
  scope: ReadScope;
}

/** One page of the fleet overview, from the rows the live log keeps current (no cluster round trip). */
export function listFleetPage(app: AppContext, input: FleetPageInput): FleetPage {
  return sharedFleetPage(app, input).page;
}

/** The same page as JSON text, serialized once however many requests share it. */
export function listFleetPageJson(app: AppContext, input: FleetPageInput): SerializedJson<FleetPage> {
  const entry = sharedFleetPage(app, input);
  return (entry.json ??= serializeJson(entry.page));
}

/**
 * The overview page rendered into the HTML, so the first rows show before any JavaScript runs. Only without sign-in
 * (auth mode `none`), where `/api/rollouts` answers anyone who reaches the server anyway; with sign-in the browser
 * asks the API, which checks the user. Anything that fails here falls back to that request.
 */
export function loadInitialFleetPage(app: AppContext, search: Record<string, string | string[] | undefined>): InitialFleetPage | null {
  try {
    if (app.config.auth.mode !== "none") return null;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(search)) if (typeof value === "string") params.set(name, value);
    const view = parseFleetView(params);
    const renderedAt = renderTimeOf(app);
    return {
      query: serializeFleetView(view),
      page: listFleetPage(app, { request: { ...view, pageSize: PAGE_SIZE }, scope: FULL_READ_SCOPE }),
      renderedAt,
    };
  } catch (err) {
    console.error("overview: could not render the first page on the server", err);
    return null;
  }
}
