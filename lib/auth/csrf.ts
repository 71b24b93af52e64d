import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const CSRF_HEADER = "x-csrf-token";
export const CSRF_COOKIE = "rollscope_csrf";

function sign(key: Uint8Array, nonce: string, binding: string): string {
  return createHmac("sha256", key).update(`${nonce}|${binding}`).digest("base64url");
}

/**
 * A signed double-submit token: `nonce.hmac(nonce|binding)`. The same value goes in an HttpOnly SameSite=Strict
 * cookie and, from the page, in the `x-csrf-token` header. The binding (session id or proxy user) stops a token
 * planted for one user being replayed for another.
 */
export function issueCsrfToken(key: Uint8Array, binding: string): string {
  const nonce = randomBytes(18).toString("base64url");
  return `${nonce}.${sign(key, nonce, binding)}`;
}

function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the cookie token is one this server signed for this binding and the header repeats it. */
export function isValidCsrfToken(key: Uint8Array, binding: string, cookieToken: string | undefined, headerToken: string | null): boolean {
  if (!cookieToken || !headerToken || !equal(cookieToken, headerToken)) return false;
  const dot = cookieToken.indexOf(".");
  if (dot <= 0) return false;
  return equal(cookieToken.slice(dot + 1), sign(key, cookieToken.slice(0, dot), binding));
}

/**
 * The Origin check that goes with the token: a browser's cross-site POST carries the attacker's Origin (or
 * `Sec-Fetch-Site: cross-site`). Same origin means the host the browser addressed (Host header) or the configured
 * public URL. Requests with neither header come from non-browser clients and still need the token.
 */
export function isSameOriginRequest(headers: Headers, baseUrl: string | undefined): boolean {
  const origin = headers.get("origin");
  if (origin !== null) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // includes the opaque origin "null"
    }
    const host = headers.get("host");
    if (host !== null && url.host === host.toLowerCase()) return true;
    return baseUrl !== undefined && url.origin === new URL(baseUrl).origin;
  }
  const site = headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
}
