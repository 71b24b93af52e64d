import { signOutCookies } from "@/lib/auth/oidc";
import { getAuthSettings } from "@/lib/auth/settings";
import { withPublicRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Ends the Rollscope session (CSRF-checked like every POST). */
export const POST = withPublicRoute(async (request) => {
  const headers = new Headers({ "cache-control": "no-store" });
  for (const cookie of signOutCookies(getAuthSettings(), request)) headers.append("set-cookie", cookie);
  return Response.json({ signedOut: true }, { headers });
});
