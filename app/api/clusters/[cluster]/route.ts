import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getClusterOrThrow } from "@/lib/services/clusters";

export const dynamic = "force-dynamic";

export const GET = withRoute<{ cluster: string }>(async (_request, { params }) => Response.json(getClusterOrThrow(getAppContext(), params.cluster)));
