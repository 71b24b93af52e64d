import "server-only";
import { getFleet } from "@/lib/fleet/fleet";
import { getDeltaLog } from "@/lib/live/delta-log";
import { getAuthSettings } from "@/lib/auth/settings";
import { buildFleetPage, type FleetPage, type FleetPageRequest, type InitialFleetPage } from "@/lib/overview/fleet-page";
import { PAGE_SIZE, parseFleetView, serializeFleetView } from "@/lib/overview/fleet-query";

/**
 * How long a computed page may be served again to other requests for the same view. Sorting and filtering 5,000 rows
 * takes 10–20 ms; during an incident many people open the same overview, and a page up to a second old loses nothing:
 * it carries the stream sequence number it reflects and browsers replay newer deltas on top, and they ask for the
 * page again at most every 2 s anyway. The JSON text is kept with it, so a shared answer costs no serialization.
 */
const SHARE_MS = 1_000;
const MAX_SHARED = 64;

interface SharedPage {
  page: FleetPage;
  at: number;
  json?: string;
}

const shared = new Map<string, SharedPage>();

function sharedFleetPage(request: FleetPageRequest, now: number): SharedPage {
  const log = getDeltaLog();
  const key = JSON.stringify(request);
  const hit = shared.get(key);
  if (hit && (hit.page.seq === log.lastSeq || now - hit.at < SHARE_MS)) return hit;
  const entry: SharedPage = { page: buildFleetPage(log.rows(), getFleet().clusterStates(), request, log.lastSeq), at: now };
  shared.delete(key);
  shared.set(key, entry);
  if (shared.size > MAX_SHARED) shared.delete(shared.keys().next().value!);
  return entry;
}

/** One page of the fleet overview, from the rows the live log keeps current (no cluster round trip). */
export function listFleetPage(request: FleetPageRequest, now = Date.now()): FleetPage {
  return sharedFleetPage(request, now).page;
}

/** The same page as JSON text, serialized once however many requests share it. */
export function listFleetPageJson(request: FleetPageRequest, now = Date.now()): string {
  const entry = sharedFleetPage(request, now);
  return (entry.json ??= JSON.stringify(entry.page));
}

/**
 * The overview page rendered into the HTML, so the first rows show before any JavaScript runs. Only without sign-in
 * (auth mode `none`), where `/api/rollouts` answers anyone who reaches the server anyway; with sign-in the browser
 * asks the API, which checks the user. Anything that fails here falls back to that request.
 */
export function loadInitialFleetPage(search: Record<string, string | string[] | undefined>): InitialFleetPage | null {
  try {
    if (getAuthSettings().config.mode !== "none") return null;
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(search)) if (typeof value === "string") params.set(name, value);
    const view = parseFleetView(params);
    const renderedAt = Math.floor(Date.now() / 1000) * 1000;
    return { query: serializeFleetView(view), page: listFleetPage({ ...view, pageSize: PAGE_SIZE }), renderedAt };
  } catch (err) {
    console.error("overview: could not render the first page on the server", err);
    return null;
  }
}
