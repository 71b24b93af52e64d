import { ActivityQuery } from "@/lib/contracts/activity";
import { withRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { exportActivity } from "@/lib/services/activity";

export const dynamic = "force-dynamic";

/** The activity timeline's changes as a CSV download, with the page's filters. */
export const GET = withRoute(async (request, { user }) => {
  const query = ActivityQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  const file = await exportActivity(getAppContext(), { user, query });
  return new Response(file.body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "no-store",
    },
  });
});
