import { withRoute } from "@/lib/http/route";
import { parseFleetPageQuery } from "@/lib/overview/fleet-page-query";
import { listFleetPageJson } from "@/lib/rollouts/service";

export const dynamic = "force-dynamic";

/** One page of the fleet overview with its counts, attention queue and filter options (see FleetPage). */
export const GET = withRoute(
  async (request) => new Response(listFleetPageJson(parseFleetPageQuery(new URL(request.url).searchParams)), { headers: { "content-type": "application/json" } }),
);
