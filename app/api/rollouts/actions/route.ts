import { RolloutActionsBatchQuery } from "@/lib/contracts/rollout-actions";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutActionsViews } from "@/lib/services/rollout-actions";

export const dynamic = "force-dynamic";

/** The action buttons of several Rollouts in one answer (`?key=cluster/namespace/name`, repeated). */
export const GET = withRoute(async (request, { user }) => {
  const query = RolloutActionsBatchQuery.parse({ key: new URL(request.url).searchParams.getAll("key") });
  return respond("GET /api/rollouts/actions", await getRolloutActionsViews(getAppContext(), { keys: query.key, user }));
});
