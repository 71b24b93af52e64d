import { respond } from "@/lib/http/respond";
import { withPublicRoute } from "@/lib/http/route";
import { isAllowedHost } from "@/lib/net/host-check";
import { getAppContext } from "@/lib/server/app-context";
import { getServerSettings } from "@/lib/server/server-settings";
import { warmUpStatus } from "@/lib/server/warm-up";
import { checkReadiness } from "@/lib/services/readiness";

export const dynamic = "force-dynamic";

/**
 * Readiness for a load balancer or kubelet (503 until config, database and migrations are in place and the start-up
 * warm-up has run) and the UI. A probe gets `{ready}` alone: the checks, clusters and recorder state only go to a
 * signed-in user (anyone in auth mode none) addressing an allowed Host, since the probe path answers any Host.
 */
export const GET = withPublicRoute(async (request, { user }) => {
  const report = await checkReadiness(getAppContext, warmUpStatus());
  const detailed = user !== null && isAllowedHost(request.headers.get("host"), getServerSettings().allowedHosts);
  return respond("GET /api/readyz", detailed ? report : { ready: report.ready }, {
    status: report.ready ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
});
