import "server-only";
import { cidrContains, parseIpAddress, type Cidr } from "@/lib/config/cidr";
import { ApiError } from "@/lib/errors/api-error";
import { describeClientAddress } from "@/lib/net/client-address";
import { parseCookies, readCookie, usesSecureCookies } from "./cookies";
import { readPeerAddress } from "./peer-address";
import { openCookie, SessionClaims } from "./session-cookie";
import type { ActiveSession, SessionStore } from "./session-store";
import type { AuthSettings } from "./settings";
import { KUBECONFIG_IDENTITY, type AuthUser } from "./types";

export const SESSION_COOKIE = "rollscope_session";
export const SESSION_AUDIENCE = "rollscope-session";

export interface RequestIdentity {
  /** null when the request is not signed in (or, in proxy mode, did not come through a trusted proxy). */
  readonly user: AuthUser | null;
  /** For the audit log: the TCP peer, or the forwarded client "via" a trusted proxy; null when unknown. */
  readonly clientAddress: string | null;
}

function isInRanges(ranges: readonly Cidr[], peer: string | undefined): boolean {
  if (peer === undefined) return false;
  const address = parseIpAddress(peer);
  return address !== undefined && ranges.some((cidr) => cidrContains(cidr, address));
}

function splitGroups(value: string | null): string[] {
  return [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((g) => g.trim())
        .filter(Boolean),
    ),
  ];
}

/** The session, or null when it was revoked or expired; 503 when the database cannot say (fail closed). */
async function activeSessionOrThrow(sessions: SessionStore, id: string): Promise<ActiveSession | null> {
  try {
    return await sessions.check(id);
  } catch (err) {
    console.error("[session] could not read the session", err);
    throw new ApiError("upstream_unavailable", "cannot check your session right now (the database did not answer); try again shortly");
  }
}

/**
 * Who sent this request. Mode none: everyone is the kubeconfig identity. Mode proxy: the user and groups headers,
 * honoured only when the TCP peer is a configured trusted proxy (anyone else could set them). Mode oidc: the
 * server-side session named by the encrypted session cookie, while it is neither revoked nor expired.
 */
export async function resolveRequestIdentity(request: Request, settings: AuthSettings, sessions: SessionStore): Promise<RequestIdentity> {
  const { headers } = request;
  const peer = readPeerAddress(headers);
  const mode = settings.config.mode;
  const trusted = mode === "proxy" && isInRanges(settings.trustedProxies, peer);
  const clientAddress = describeClientAddress(peer, headers.get("x-forwarded-for"), (address) =>
    isInRanges(settings.forwardingProxies, address),
  );
  switch (mode) {
    case "none":
      return { user: { via: "none", name: KUBECONFIG_IDENTITY, groups: [], sessionId: null }, clientAddress };
    case "proxy": {
      const proxy = settings.config.proxy;
      const name = trusted && proxy ? headers.get(proxy.userHeader)?.trim() : undefined;
      if (!proxy || !name) return { user: null, clientAddress };
      if (name.toLowerCase().startsWith("system:") && !proxy.allowedSystemUsers.includes(name)) {
        throw new ApiError(
          "forbidden",
          `the sign-in proxy named a Kubernetes system identity (${JSON.stringify(name.slice(0, 100))}): Rollscope does not act as one unless auth.proxy.allowedSystemUsers lists it`,
        );
      }
      return { user: { via: "proxy", name, groups: splitGroups(headers.get(proxy.groupsHeader)), sessionId: null }, clientAddress };
    }
    case "oidc": {
      const cookie = readCookie(parseCookies(headers.get("cookie")), SESSION_COOKIE, usesSecureCookies(settings.config.baseUrl, request));
      const claims = await openCookie(cookie, SESSION_AUDIENCE, settings.keys.sessionKey, SessionClaims);
      const session = claims ? await activeSessionOrThrow(sessions, claims.sid) : null;
      if (!session) return { user: null, clientAddress };
      return { user: { via: "oidc", name: session.user, groups: session.groups, sessionId: session.id }, clientAddress };
    }
  }
}

/** What a CSRF token is bound to: the OIDC session, the proxy user, or nothing in mode none. */
export function csrfBinding(user: AuthUser | null): string {
  if (!user) return "anonymous";
  return user.sessionId ? `session:${user.sessionId}` : `${user.via}:${user.name}`;
}
