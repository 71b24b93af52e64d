import { completeSignIn, SignInError } from "@/lib/auth/oidc";
import { getAuthSettings } from "@/lib/auth/settings";
import { withPublicRoute } from "@/lib/http/route";
import { getSessionStore } from "@/lib/server/app-context";
import { withBasePath } from "@/lib/format/base-path";

export const dynamic = "force-dynamic";

/** The provider redirects here; on success the session cookie is set and the browser goes back where it was. */
export const GET = withPublicRoute(async (request) => {
  try {
    const { returnTo, cookies } = await completeSignIn(getAuthSettings(), getSessionStore(), request);
    const headers = new Headers({ location: withBasePath(returnTo), "cache-control": "no-store" });
    for (const cookie of cookies) headers.append("set-cookie", cookie);
    return new Response(null, { status: 303, headers });
  } catch (err) {
    if (!(err instanceof SignInError)) throw err;
    return new Response(null, { status: 303, headers: { location: withBasePath(`/signin?error=${encodeURIComponent(err.message)}`) } });
  }
});
