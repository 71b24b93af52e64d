import { RolloutParams } from "@/lib/contracts/rollout-detail";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutDetailOrThrow } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

/** The Rollout's live view with its events, analysis runs and revisions. */
export const GET = withRoute<RolloutParams>(async (_request, { params }) => Response.json(await getRolloutDetailOrThrow(getAppContext(), RolloutParams.parse(params))));
