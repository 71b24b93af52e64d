import { withPublicRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { warmUpStatus } from "@/lib/server/warm-up";
import { checkReadiness } from "@/lib/services/readiness";

export const dynamic = "force-dynamic";

/** Readiness for a load balancer or kubelet (503 until config, database and migrations are in place and the start-up warm-up has run) and the UI. */
export const GET = withPublicRoute(async () => {
  const report = await checkReadiness(getAppContext, warmUpStatus());
  return Response.json(report, { status: report.ready ? 200 : 503, headers: { "cache-control": "no-store" } });
});
