import "server-only";
import { getFleet } from "@/lib/fleet/fleet";
import { getDeltaLog } from "@/lib/live/delta-log";
import { getAuthSettings } from "@/lib/auth/settings";
import { buildFleetPage, type FleetPage, type FleetPageRequest, type InitialFleetPage } from "@/lib/overview/fleet-page";
import { PAGE_SIZE, parseFleetView, serializeFleetView } from "@/lib/overview/fleet-query";

/**
 * How long a computed page may be served again to other requests for the same view. Sorting and filtering 5,000 rows
 * takes 10–20 ms; during an incident many people open the same overview, and a page that is a fraction of a second
 * old loses nothing: it carries the stream sequence number it reflects, and browsers replay newer deltas on top.
 */
const SHARE_MS = 250;
const MAX_SHARED = 64;

const shared = new Map<string, { page: FleetPage; at: number }>();

/** One page of the fleet overview, from the rows the live log keeps current (no cluster round trip). */
export function listFleetPage(request: FleetPageRequest, now = Date.now()): FleetPage {
  const log = getDeltaLog();
  const key = JSON.stringify(request);
  const hit = shared.get(key);
  if (hit && (hit.page.seq === log.lastSeq || now - hit.at < SHARE_MS)) return hit.page;
  const page = buildFleetPage(log.rows(), getFleet().clusterStates(), request, log.lastSeq);
  shared.delete(key);
  shared.set(key, { page, at: now });
  if (shared.size > MAX_SHARED) shared.delete(shared.keys().next().value!);
  return page;
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
