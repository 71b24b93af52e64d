import { HistoryQuery, RolloutParams } from "@/lib/contracts/rollout-detail";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutMeasuredTraffic } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

/** Measured canary share over `range`, from the cluster's Prometheus (null when it has no measured-traffic source). */
export const GET = withRoute<RolloutParams>(async (request, { params }) => {
  const { range } = HistoryQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await getRolloutMeasuredTraffic(getAppContext(), { ...RolloutParams.parse(params), range }));
});
