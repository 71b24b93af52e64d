import { getClusterOrThrow } from "@/lib/fleet/cluster-service";
import { withRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = withRoute<{ cluster: string }>(async (_request, { params }) => Response.json(getClusterOrThrow(params.cluster)));
