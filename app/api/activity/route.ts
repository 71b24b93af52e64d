import { ActivityQuery } from "@/lib/contracts/activity";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { listActivity } from "@/lib/services/activity";

export const dynamic = "force-dynamic";

/** Every change of every Rollout the user may read in the window, newest first. */
export const GET = withRoute(async (request, { user }) => {
  const query = ActivityQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await listActivity(getAppContext(), { user, query }));
});
