/** The request's cookies by name (first occurrence wins, as browsers send the most specific first). */
export function parseCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || cookies.has(name)) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      cookies.set(name, decodeURIComponent(value));
    } catch {
      cookies.set(name, value);
    }
  }
  return cookies;
}

export interface CookieOptions {
  readonly secure: boolean;
  readonly sameSite: "Strict" | "Lax";
  /** Seconds; 0 deletes the cookie. */
  readonly maxAge: number;
}

/** Always HttpOnly and Path=/ (no Domain), so a Secure cookie can carry the `__Host-` prefix. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", `SameSite=${options.sameSite}`, `Max-Age=${options.maxAge}`];
  if (options.maxAge === 0) parts.push("Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

/** `__Host-` binds the cookie to this exact origin over HTTPS; browsers refuse the prefix without Secure. */
export function cookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : base;
}

/**
 * Reads a cookie under the one name it is set with: `__Host-<base>` where cookies are secure, else `<base>`. The
 * plain name is not a fallback: the prefix is what stops a sibling subdomain or a plain-http page planting it.
 */
export function readCookie(cookies: Map<string, string>, base: string, secure: boolean): string | undefined {
  return cookies.get(cookieName(base, secure));
}

/** Whether cookies get `Secure` and the `__Host-` prefix: from the public URL (auth.baseUrl), else the request's scheme. */
export function usesSecureCookies(baseUrl: string | undefined, request: Request): boolean {
  if (baseUrl) return baseUrl.startsWith("https:");
  return new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
}
