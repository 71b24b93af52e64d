import { listClusters } from "@/lib/fleet/cluster-service";
import { withRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = withRoute(async () => Response.json(listClusters()));
