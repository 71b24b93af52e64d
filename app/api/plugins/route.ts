import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getPluginsOverview } from "@/lib/services/plugin-registry";

export const dynamic = "force-dynamic";

export const GET = withRoute(async () => Response.json(await getPluginsOverview(getAppContext())));
