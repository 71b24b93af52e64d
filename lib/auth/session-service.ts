import "server-only";
import { cookieName, parseCookies, readCookie, serializeCookie } from "./cookies";
import { CSRF_COOKIE, issueCsrfToken, isValidCsrfToken } from "./csrf";
import { wantsSecureCookies } from "./oidc";
import { csrfBinding } from "./resolve-user";
import { getAuthSettings, type AuthSettings } from "./settings";
import type { AuthMode, AuthUser } from "./types";

/** GET /api/session: who the browser is, and the CSRF token its state-changing requests must send. */
export interface SessionView {
  mode: AuthMode;
  /** null when not signed in (modes proxy and oidc). In mode none: the kubeconfig identity. */
  user: { name: string; groups: string[] } | null;
  readOnly: boolean;
  /** Where to send a signed-out browser; null when there is no sign-in page (modes none and proxy). */
  signInUrl: string | null;
  /** One line for the header, e.g. "No sign-in: actions run as the dashboard's kubeconfig identity". */
  identityNote: string;
  csrfToken: string;
}

function identityNote(mode: AuthMode, user: AuthUser | null): string {
  if (mode === "none") return "No sign-in: actions run as the dashboard's kubeconfig identity";
  if (!user) return mode === "proxy" ? "Not signed in: open Rollscope through the sign-in proxy" : "Not signed in";
  return `Signed in as ${user.name}${mode === "proxy" ? " (via the sign-in proxy)" : ""}`;
}

/** The session view plus the CSRF cookie to set; an existing valid token is kept so open tabs keep working. */
export function getSessionView(request: Request, user: AuthUser | null, settings: AuthSettings = getAuthSettings()): { view: SessionView; cookies: string[] } {
  const binding = csrfBinding(user);
  const secure = wantsSecureCookies(settings, request);
  const existing = readCookie(parseCookies(request.headers.get("cookie")), CSRF_COOKIE, secure);
  const reuse = existing !== undefined && isValidCsrfToken(settings.keys.csrfKey, binding, existing, existing);
  const csrfToken = reuse ? existing : issueCsrfToken(settings.keys.csrfKey, binding);
  const cookies = reuse ? [] : [serializeCookie(cookieName(CSRF_COOKIE, secure), csrfToken, { secure, sameSite: "Strict", maxAge: settings.config.sessionTtlHours * 3600 })];
  const mode = settings.config.mode;
  return {
    view: {
      mode,
      user: user ? { name: user.name, groups: [...user.groups] } : null,
      readOnly: settings.rollscope.readOnly,
      signInUrl: mode === "oidc" ? "/signin" : null,
      identityNote: identityNote(mode, user),
      csrfToken,
    },
    cookies,
  };
}
