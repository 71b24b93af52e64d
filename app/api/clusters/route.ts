import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { listClusters } from "@/lib/services/clusters";

export const dynamic = "force-dynamic";

export const GET = withRoute(async () => Response.json(listClusters(getAppContext())));
