import { RolloutParams } from "@/lib/contracts/rollout-detail";
import { RolloutActionRequest } from "@/lib/contracts/rollout-actions";
import { MAX_ACTION_BODY_BYTES } from "@/lib/actions/schema";
import { readJsonBody } from "@/lib/http/read-body";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutActionsView, runRolloutAction } from "@/lib/services/rollout-actions";

export const dynamic = "force-dynamic";

/** The action buttons for this Rollout: what the state allows, what the user may do, the effect of each. */
export const GET = withRoute<RolloutParams>(async (_request, { params, user }) => Response.json(await getRolloutActionsView(getAppContext(), { rollout: RolloutParams.parse(params), user })));

/** Runs one action (body: RolloutActionRequest); every attempt is audited. */
export const POST = withRoute<RolloutParams>(async (request, { params, user, requestId, clientAddress }) => {
  const body = RolloutActionRequest.parse(await readJsonBody(request, MAX_ACTION_BODY_BYTES));
  return Response.json(await runRolloutAction(getAppContext(), { rollout: RolloutParams.parse(params), request: body, caller: { user, requestId, clientAddress } }));
});
