import { RolloutActionRequest } from "@/lib/actions/schema";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutActionsView, runRolloutAction } from "@/lib/services/rollout-actions";

export const dynamic = "force-dynamic";

type Params = { cluster: string; namespace: string; name: string };

/** The action buttons for this Rollout: what the state allows, what the user may do, the effect of each. */
export const GET = withRoute<Params>(async (_request, { params, user }) => Response.json(await getRolloutActionsView(getAppContext(), { rollout: params, user })));

/** Runs one action (body: RolloutActionRequest); every attempt is audited. */
export const POST = withRoute<Params>(async (request, { params, user, requestId, clientAddress }) => {
  const body = RolloutActionRequest.parse(await request.json().catch(() => undefined));
  return Response.json(await runRolloutAction(getAppContext(), { rollout: params, request: body, caller: { user, requestId, clientAddress } }));
});
