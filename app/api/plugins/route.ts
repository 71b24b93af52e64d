import { withRoute } from "@/lib/http/route";
import { getPluginsOverview } from "@/lib/plugins/service";

export const dynamic = "force-dynamic";

export const GET = withRoute(async () => Response.json(await getPluginsOverview()));
