import { RolloutParams } from "@/lib/contracts/rollout-detail";
import { RolloutActionRequest } from "@/lib/contracts/rollout-actions";
import { MAX_ACTION_BODY_BYTES } from "@/lib/actions/schema";
import { readJsonBody } from "@/lib/http/read-body";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { requireReadableRollout } from "@/lib/services/read-scope";
import { getRolloutActionsView, runRolloutAction } from "@/lib/services/rollout-actions";

export const dynamic = "force-dynamic";

/** The action buttons for this Rollout: what the state allows, what the user may do, the effect of each. */
export const GET = withRoute<RolloutParams>(async (_request, { params, user }) => {
  const app = getAppContext();
  const rollout = RolloutParams.parse(params);
  await requireReadableRollout(app, { user, rollout });
  return respond("GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", await getRolloutActionsView(app, { rollout, user }));
});

/** Runs one action (body: RolloutActionRequest); every attempt on a Rollout the user may read is audited. */
export const POST = withRoute<RolloutParams>(async (request, { params, user, requestId, clientAddress }) => {
  const app = getAppContext();
  const body = RolloutActionRequest.parse(await readJsonBody(request, MAX_ACTION_BODY_BYTES));
  const rollout = RolloutParams.parse(params);
  await requireReadableRollout(app, { user, rollout });
  return respond(
    "POST /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions",
    await runRolloutAction(app, { rollout, request: body, caller: { user, requestId, clientAddress } }),
  );
});
