import { withRoute } from "@/lib/http/route";
import { parseFleetPageQuery } from "@/lib/contracts/fleet-page";
import { getAppContext } from "@/lib/server/app-context";
import { listFleetPageJson } from "@/lib/services/fleet-page";

export const dynamic = "force-dynamic";

/** One page of the fleet overview with its counts, attention queue and filter options (see FleetPage). */
export const GET = withRoute(async (request) => {
  const json = listFleetPageJson(getAppContext(), parseFleetPageQuery(new URL(request.url).searchParams));
  return new Response(json, { headers: { "content-type": "application/json" } });
});
