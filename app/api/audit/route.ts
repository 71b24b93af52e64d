import { AuditQuery } from "@/lib/audit/schema";
import { listAuditEntries } from "@/lib/audit/service";
import { withRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** One page of the audit log, newest first, filtered by the query string. */
export const GET = withRoute(async (request) => {
  const query = AuditQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await listAuditEntries(query));
});
