import { PluginHealthQuery } from "@/lib/contracts/plugins";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getSharedPluginHealth } from "@/lib/services/plugin-health";
import { resolveReadScope } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

export const GET = withRoute(async (request, { user }) => {
  const app = getAppContext();
  const query = PluginHealthQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return respond("GET /api/plugins/health", await getSharedPluginHealth(app, { ...query, scope: await resolveReadScope(app, user) }));
});
