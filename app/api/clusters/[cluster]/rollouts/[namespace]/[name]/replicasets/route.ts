import { RolloutParams } from "@/lib/contracts/rollout-detail";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { requireReadableRollout } from "@/lib/services/read-scope";
import { getRolloutWorkload } from "@/lib/services/rollout-workload";

export const dynamic = "force-dynamic";

/** The Rollout's ReplicaSets per revision with their Pods, and the numbers `kubectl argo rollouts get rollout` prints. */
export const GET = withRoute<RolloutParams>(async (_request, { params, user }) => {
  const app = getAppContext();
  const rollout = RolloutParams.parse(params);
  await requireReadableRollout(app, { user, rollout });
  return respond("GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets", await getRolloutWorkload(app, rollout));
});
