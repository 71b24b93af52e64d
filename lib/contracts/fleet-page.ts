import { serializeFleetView, type FleetView } from "@/lib/overview/fleet-query";
import { apiPath } from "./paths";

/** `GET /api/rollouts?…`: one page of the fleet overview (request: FleetPageQuery; response: FleetPage). */
export { parseFleetPageQuery } from "@/lib/overview/fleet-page-query";
export type { FleetPage, FleetPageRequest, InitialFleetPage } from "@/lib/overview/fleet-page";
export type { RolloutSummary } from "@/lib/overview/rollout-summary";
export type { FleetView };

export function fleetPagePath(view: FleetView) {
  const query = serializeFleetView(view);
  return apiPath("GET /api/rollouts", query ? `/api/rollouts?${query}` : "/api/rollouts");
}
