import "server-only";
import { getFleet } from "@/lib/fleet/fleet";
import { getDeltaLog } from "@/lib/live/delta-log";
import { buildFleetPage, type FleetPage, type FleetPageRequest } from "@/lib/overview/fleet-page";

/** One page of the fleet overview, from the rows the live log keeps current (no cluster round trip). */
export function listFleetPage(request: FleetPageRequest): FleetPage {
  const log = getDeltaLog();
  return buildFleetPage(log.rows(), getFleet().clusterStates(), request, log.lastSeq);
}
