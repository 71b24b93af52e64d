import { withRoute } from "@/lib/http/route";
import { getRolloutDetailOrThrow } from "@/lib/rollouts/detail-service";

export const dynamic = "force-dynamic";

type Params = { cluster: string; namespace: string; name: string };

export const GET = withRoute<Params>(async (_request, { params }) =>
  Response.json(await getRolloutDetailOrThrow(params.cluster, params.namespace, params.name)),
);
