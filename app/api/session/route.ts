import { respond } from "@/lib/http/respond";
import { withPublicRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { getSessionView } from "@/lib/services/session";

export const dynamic = "force-dynamic";

/** The current user (or null), the auth mode, read-only mode and this browser's CSRF token. */
export const GET = withPublicRoute(async (request, { user }) => {
  const { view, cookies } = getSessionView(getAppContext(), { request, user });
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of cookies) headers.append("set-cookie", cookie);
  return respond("GET /api/session", view, { headers });
});
