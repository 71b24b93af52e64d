import { AuditQuery } from "@/lib/contracts/audit";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { listAuditEntries } from "@/lib/services/audit-log";

export const dynamic = "force-dynamic";

/** One page of the audit log, newest first, filtered by the query string. */
export const GET = withRoute(async (request) => {
  const query = AuditQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await listAuditEntries(getAppContext(), query));
});
