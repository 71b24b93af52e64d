import { AuditExportQuery } from "@/lib/contracts/audit";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { exportAuditEntries } from "@/lib/services/audit-log";
import { requireAuditReader } from "@/lib/services/read-scope";

export const dynamic = "force-dynamic";

/** Every audit entry matching the filters, as a CSV or JSON download; 403 unless the user is an audit reader. */
export const GET = withRoute(async (request, { user }) => {
  const app = getAppContext();
  requireAuditReader(app, user);
  const { format, ...query } = AuditExportQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const file = await exportAuditEntries(app, { query, format });
  return new Response(file.body, {
    headers: {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
    },
  });
});
