import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getClusterPlugins } from "@/lib/services/plugin-registry";
import { resolveReadScope } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

export const GET = withRoute<{ cluster: string }>(async (_request, { params, user }) => {
  const app = getAppContext();
  return respond(
    "GET /api/clusters/[cluster]/plugins",
    await getClusterPlugins(app, { cluster: params.cluster, scope: await resolveReadScope(app, user) }),
  );
});
