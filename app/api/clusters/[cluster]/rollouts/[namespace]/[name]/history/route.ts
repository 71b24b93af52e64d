import { HistoryQuery, RolloutParams } from "@/lib/contracts/rollout-detail";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { requireReadableRollout } from "@/lib/services/read-scope";
import { getRolloutHistory } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

/** The recorded weight timeline and markers over `range`; 404 when the user may not read the Rollout. */
export const GET = withRoute<RolloutParams>(async (request, { params, user }) => {
  const app = getAppContext();
  const { range } = HistoryQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const rollout = RolloutParams.parse(params);
  await requireReadableRollout(app, { user, rollout });
  return respond("GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/history", await getRolloutHistory(app, { ...rollout, range }));
});
