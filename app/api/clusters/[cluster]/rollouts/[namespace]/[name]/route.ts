import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutDetailOrThrow } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

type Params = { cluster: string; namespace: string; name: string };

export const GET = withRoute<Params>(async (_request, { params }) => Response.json(await getRolloutDetailOrThrow(getAppContext(), params)));
