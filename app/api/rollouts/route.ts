import { respondSerialized } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { parseFleetPageQuery } from "@/lib/contracts/fleet-page";
import { getAppContext } from "@/lib/server/app-context";
import { listFleetPageJson } from "@/lib/services/fleet-page";
import { resolveReadScope } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

/** One page of the fleet overview with its counts, attention queue and filter options (see FleetPage), over what the user may read. */
export const GET = withRoute(async (request, { user }) => {
  const app = getAppContext();
  const view = parseFleetPageQuery(new URL(request.url).searchParams);
  // Serialized once for every request that shares the page (see listFleetPageJson).
  return respondSerialized("GET /api/rollouts", listFleetPageJson(app, { request: view, scope: await resolveReadScope(app, user) }));
});
