import { HistoryQuery, RolloutParams } from "@/lib/contracts/rollout-detail";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { requireReadableRollout } from "@/lib/services/read-scope";
import { getRolloutMeasuredTraffic } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

/** Measured canary share over `range`, from the cluster's Prometheus (null when it has no measured-traffic source). */
export const GET = withRoute<RolloutParams>(async (request, { params, user }) => {
  const app = getAppContext();
  const { range } = HistoryQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const rollout = RolloutParams.parse(params);
  await requireReadableRollout(app, { user, rollout });
  return respond(
    "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/measured-traffic",
    await getRolloutMeasuredTraffic(app, { ...rollout, range }),
  );
});
