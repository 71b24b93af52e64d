import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { parseCookies, readCookie, usesSecureCookies } from "./cookies";
import { CSRF_COOKIE, CSRF_HEADER, isSameOriginRequest, isValidCsrfToken } from "./csrf";
import { csrfBinding, resolveRequestIdentity } from "./resolve-user";
import type { SessionStore } from "./session-store";
import { getAuthSettings, type AuthSettings } from "./settings";
import type { AuthUser } from "./types";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface AuthenticatedRequest {
  user: AuthUser | null;
  clientAddress: string | null;
}

/** Rejects a state-changing request that lacks this user's CSRF token or comes from another origin. */
function verifyCsrf(request: Request, settings: AuthSettings, user: AuthUser | null): void {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return;
  if (!isSameOriginRequest(request.headers, settings.config.baseUrl)) {
    throw new ApiError("csrf", "cross-origin request refused");
  }
  const cookie = readCookie(parseCookies(request.headers.get("cookie")), CSRF_COOKIE, usesSecureCookies(settings.config.baseUrl, request));
  if (!isValidCsrfToken(settings.keys.csrfKey, csrfBinding(user), cookie, request.headers.get(CSRF_HEADER))) {
    throw new ApiError("csrf", `missing or invalid CSRF token: send the ${CSRF_HEADER} header from GET /api/session`);
  }
}

/** The identity check the route wrapper runs before every handler. */
export async function authenticateRequest(
  request: Request,
  options: { requireUser: boolean; sessions: SessionStore },
  settings: AuthSettings = getAuthSettings(),
): Promise<AuthenticatedRequest> {
  const identity = await resolveRequestIdentity(request, settings, options.sessions);
  if (options.requireUser && !identity.user) {
    const how = settings.config.mode === "proxy" ? "through the sign-in proxy" : "at /signin";
    throw new ApiError("unauthorized", `sign in ${how} first`);
  }
  verifyCsrf(request, settings, identity.user);
  return identity;
}
