import { beginSignIn } from "@/lib/auth/oidc";
import { getAuthSettings } from "@/lib/auth/settings";
import { withPublicRoute } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Redirects to the OIDC provider (mode oidc); `returnTo` is a path on this site. */
export const GET = withPublicRoute(async (request) => {
  const returnTo = new URL(request.url).searchParams.get("returnTo") ?? "/";
  const { location, cookie } = await beginSignIn(getAuthSettings(), request, returnTo);
  return new Response(null, { status: 303, headers: { location, "set-cookie": cookie, "cache-control": "no-store" } });
});
