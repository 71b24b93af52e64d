import "server-only";
import * as client from "openid-client";
import { ApiError } from "@/lib/errors/api-error";
import { safeReturnTo } from "@/lib/format/return-to";
import { serializeCookie, cookieName, parseCookies, readCookie, usesSecureCookies } from "./cookies";
import { readClientSecret } from "./keys";
import { SESSION_AUDIENCE, SESSION_COOKIE } from "./resolve-user";
import { openCookie, sealCookie, SignInClaims } from "./session-cookie";
import type { SessionStore } from "./session-store";
import type { AuthSettings } from "./settings";

const SIGNIN_COOKIE = "rollscope_signin";
const SIGNIN_AUDIENCE = "rollscope-signin";
const SIGNIN_TTL_SECONDS = 600;

type OidcSettings = AuthSettings & { config: { oidc: NonNullable<AuthSettings["config"]["oidc"]> } };

function oidcSettingsOrThrow(settings: AuthSettings): OidcSettings {
  if (settings.config.mode !== "oidc" || !settings.config.oidc)
    throw new ApiError("not_found", "OIDC sign-in is not configured (auth.mode is not oidc)");
  return settings as OidcSettings;
}

/** Whether cookies get `Secure` (and the `__Host-` prefix): from auth.baseUrl, else the request's scheme. */
export function wantsSecureCookies(settings: AuthSettings, request: Request): boolean {
  return usesSecureCookies(settings.config.baseUrl, request);
}

function redirectUrl(settings: OidcSettings): string {
  return settings.config.oidc.redirectUrl ?? `${settings.config.baseUrl?.replace(/\/$/, "")}/api/auth/callback`;
}

function isLoopbackUrl(url: URL): boolean {
  return url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
}

const globalForOidc = globalThis as unknown as { rollscopeOidc?: Map<string, Promise<client.Configuration>> };
const discoveries = (globalForOidc.rollscopeOidc ??= new Map());

/**
 * The provider's metadata (discovery) and this client, cached per issuer; a failed discovery is retried on the
 * next sign-in. Plain http is accepted only for a loopback issuer (a provider on the same machine).
 */
function oidcConfiguration(settings: OidcSettings): Promise<client.Configuration> {
  const { issuer, clientId } = settings.config.oidc;
  const key = `${issuer}\n${clientId}`;
  let configuration = discoveries.get(key);
  if (!configuration) {
    const issuerUrl = new URL(issuer);
    const secret = readClientSecret(settings.config);
    const insecure = issuerUrl.protocol === "http:" && isLoopbackUrl(issuerUrl);
    configuration = client.discovery(issuerUrl, clientId, secret, secret ? client.ClientSecretBasic(secret) : client.None(), {
      ...(insecure ? { execute: [client.allowInsecureRequests] } : {}),
      timeout: 10,
    });
    configuration.catch(() => discoveries.delete(key));
    discoveries.set(key, configuration);
  }
  return configuration;
}

/** Starts the authorization code flow with PKCE, state and nonce kept in a short-lived encrypted cookie. */
export async function beginSignIn(
  settings: AuthSettings,
  request: Request,
  returnTo: string,
): Promise<{ location: string; cookie: string }> {
  const oidc = oidcSettingsOrThrow(settings);
  const configuration = await oidcConfiguration(oidc).catch((err: unknown) => {
    throw new ApiError("upstream_unavailable", `the OIDC provider did not answer discovery: ${(err as Error).message}`);
  });
  const claims: SignInClaims = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    returnTo: safeReturnTo(returnTo),
  };
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUrl(oidc),
    scope: oidc.config.oidc.scopes.join(" "),
    state: claims.state,
    nonce: claims.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(claims.verifier),
    code_challenge_method: "S256",
  });
  const secure = wantsSecureCookies(settings, request);
  const sealed = await sealCookie(claims, SIGNIN_AUDIENCE, settings.keys.sessionKey, SIGNIN_TTL_SECONDS);
  // Lax: the provider's redirect back is a top-level GET from another site.
  return {
    location: url.href,
    cookie: serializeCookie(cookieName(SIGNIN_COOKIE, secure), sealed, { secure, sameSite: "Lax", maxAge: SIGNIN_TTL_SECONDS }),
  };
}

function claimString(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function claimGroups(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === "string" && g.length > 0);
  return typeof value === "string" && value
    ? value
        .split(",")
        .map((g) => g.trim())
        .filter(Boolean)
    : [];
}

export class SignInError extends Error {}

/**
 * Finishes the flow: checks state, nonce and PKCE through openid-client, takes the user from the ID token's
 * username claim (the userinfo endpoint fills in missing claims) and groups, opens a server-side session for them
 * and seals its id in the session cookie.
 */
export async function completeSignIn(
  settings: AuthSettings,
  sessions: SessionStore,
  request: Request,
): Promise<{ returnTo: string; cookies: string[] }> {
  const oidc = oidcSettingsOrThrow(settings);
  const secure = wantsSecureCookies(settings, request);
  const clearSignIn = serializeCookie(cookieName(SIGNIN_COOKIE, secure), "", { secure, sameSite: "Lax", maxAge: 0 });
  const pending = await openCookie(
    readCookie(parseCookies(request.headers.get("cookie")), SIGNIN_COOKIE, secure),
    SIGNIN_AUDIENCE,
    settings.keys.sessionKey,
    SignInClaims,
  );
  if (!pending) throw new SignInError("the sign-in expired or was started in another browser; start again");
  const configuration = await oidcConfiguration(oidc);
  const callbackUrl = new URL(redirectUrl(oidc));
  callbackUrl.search = new URL(request.url).search;
  let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
  } catch (err) {
    throw new SignInError(`the OIDC provider refused the sign-in: ${(err as Error).message}`);
  }
  let claims: Record<string, unknown> = { ...tokens.claims() };
  const { usernameClaim, groupsClaim, usernamePrefix, groupsPrefix } = oidc.config.oidc;
  if ((claims[usernameClaim] === undefined || claims[groupsClaim] === undefined) && tokens.access_token) {
    const userInfo = await client.fetchUserInfo(configuration, tokens.access_token, String(claims.sub)).catch(() => ({}));
    claims = { ...userInfo, ...Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined)) };
  }
  const username = claimString(claims[usernameClaim]);
  if (!username) throw new SignInError(`the ID token has no "${usernameClaim}" claim (auth.oidc.usernameClaim)`);
  const ttl = settings.config.sessionTtlHours * 3600;
  const session = await sessions.open({
    user: `${usernamePrefix}${username}`,
    groups: claimGroups(claims[groupsClaim]).map((g) => `${groupsPrefix}${g}`),
    ttlSeconds: ttl,
  });
  const sealed = await sealCookie({ sid: session.id }, SESSION_AUDIENCE, settings.keys.sessionKey, ttl);
  return {
    returnTo: safeReturnTo(pending.returnTo),
    cookies: [clearSignIn, serializeCookie(cookieName(SESSION_COOKIE, secure), sealed, { secure, sameSite: "Lax", maxAge: ttl })],
  };
}

/** Cookies that clear the session in this browser (the server-side session is revoked separately); the provider's own session is left alone. */
export function signOutCookies(settings: AuthSettings, request: Request): string[] {
  const secure = wantsSecureCookies(settings, request);
  return [SESSION_COOKIE, "rollscope_csrf"].map((name) =>
    serializeCookie(cookieName(name, secure), "", { secure, sameSite: "Lax", maxAge: 0 }),
  );
}
