import { ActivityQuery } from "@/lib/contracts/activity";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { listActivity } from "@/lib/services/activity";

export const dynamic = "force-dynamic";

/** Every change of every Rollout the user may read in the window, newest first. */
export const GET = withRoute(async (request, { user }) => {
  const query = ActivityQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return respond("GET /api/activity", await listActivity(getAppContext(), { user, query }));
});
