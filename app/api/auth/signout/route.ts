import { respond } from "@/lib/http/respond";
import { withPublicRoute } from "@/lib/http/route";
import { getAppContext } from "@/lib/server/app-context";
import { signOut } from "@/lib/services/session";

export const dynamic = "force-dynamic";

/** Ends the Rollscope session on the server and clears its cookies (CSRF-checked like every POST). */
export const POST = withPublicRoute(async (request, { user }) => {
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of await signOut(getAppContext(), { request, user })) headers.append("set-cookie", cookie);
  return respond("POST /api/auth/signout", { signedOut: true }, { headers });
});
