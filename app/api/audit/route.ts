import { AuditQuery } from "@/lib/contracts/audit";
import { respond } from "@/lib/http/respond";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { listAuditEntries } from "@/lib/services/audit-log";
import { requireAuditReader } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

/** One page of the audit log, newest first, filtered by the query string; 403 unless the user is an audit reader. */
export const GET = withRoute(async (request, { user }) => {
  const app = getAppContext();
  requireAuditReader(app, user);
  const query = AuditQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return respond("GET /api/audit", await listAuditEntries(app, query));
});
