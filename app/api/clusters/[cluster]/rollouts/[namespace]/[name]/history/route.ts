import { HistoryQuery, RolloutParams } from "@/lib/contracts/rollout-detail";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutHistory } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

/** The recorded weight timeline and markers over `range`. */
export const GET = withRoute<RolloutParams>(async (request, { params }) => {
  const { range } = HistoryQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await getRolloutHistory(getAppContext(), { ...RolloutParams.parse(params), range }));
});
