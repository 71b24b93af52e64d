import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { listClusters } from "@/lib/services/clusters";
import { resolveReadScope } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

export const GET = withRoute(async (_request, { user }) => {
  const app = getAppContext();
  return respond("GET /api/clusters", listClusters(app, { scope: await resolveReadScope(app, user) }));
});
