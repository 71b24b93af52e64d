import { getRolloutActionsView, runRolloutAction } from "@/lib/actions/service";
import { MAX_ACTION_BODY_BYTES, RolloutActionRequest } from "@/lib/actions/schema";
import { readJsonBody } from "@/lib/http/read-body";
import { withRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

type Params = { cluster: string; namespace: string; name: string };

/** The action buttons for this Rollout: what the state allows, what the user may do, the effect of each. */
export const GET = withRoute<Params>(async (_request, { params, user }) => Response.json(await getRolloutActionsView(params, user)));

/** Runs one action (body: RolloutActionRequest); every attempt is audited. */
export const POST = withRoute<Params>(async (request, { params, user, requestId, clientAddress }) => {
  const body = RolloutActionRequest.parse(await readJsonBody(request, MAX_ACTION_BODY_BYTES));
  return Response.json(await runRolloutAction(params, body, { user, requestId, clientAddress }));
});
