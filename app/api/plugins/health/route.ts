import { PluginHealthQuery } from "@/lib/contracts/plugins";
import { respondSerialized } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getSharedPluginHealthJson } from "@/lib/services/plugin-health";
import { resolveReadScope } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

export const GET = withRoute(async (request, { user }) => {
  const app = getAppContext();
  const query = PluginHealthQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return respondSerialized(
    "GET /api/plugins/health",
    await getSharedPluginHealthJson(app, { ...query, scope: await resolveReadScope(app, user) }),
  );
});
