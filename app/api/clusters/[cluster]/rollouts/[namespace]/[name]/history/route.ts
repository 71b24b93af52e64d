import { z } from "zod";
import { withRoute } from "@/lib/http/route";
import { HISTORY_RANGES } from "@/lib/rollouts/detail-types";
import { getRolloutHistory } from "@/lib/rollouts/detail-service";

export const dynamic = "force-dynamic";

type Params = { cluster: string; namespace: string; name: string };

const querySchema = z.object({ range: z.enum(HISTORY_RANGES).default("1h") });

export const GET = withRoute<Params>(async (request, { params }) => {
  const { range } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await getRolloutHistory(params.cluster, params.namespace, params.name, range));
});
