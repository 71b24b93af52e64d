import { RolloutParams } from "@/lib/contracts/rollout-detail";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { requireReadableRollout } from "@/lib/services/read-scope";
import { getRolloutDetailOrThrow } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

/** The Rollout's live view with its events, analysis runs and revisions; 404 when the user may not read it. */
export const GET = withRoute<RolloutParams>(async (_request, { params, user }) => {
  const app = getAppContext();
  const rollout = RolloutParams.parse(params);
  await requireReadableRollout(app, { user, rollout });
  return respond("GET /api/clusters/[cluster]/rollouts/[namespace]/[name]", await getRolloutDetailOrThrow(app, rollout));
});
