import { z } from "zod";
import { withRoute } from "@/lib/http/route";
import { HISTORY_RANGES } from "@/lib/rollouts/detail-types";
import { getAppContext } from "@/lib/server/app-context";
import { getRolloutHistory } from "@/lib/services/rollout-detail";

export const dynamic = "force-dynamic";

type Params = { cluster: string; namespace: string; name: string };

const querySchema = z.object({ range: z.enum(HISTORY_RANGES).default("1h") });

export const GET = withRoute<Params>(async (request, { params }) => {
  const { range } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await getRolloutHistory(getAppContext(), { ...params, range }));
});
