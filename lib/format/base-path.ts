/**
 * The URL prefix Rollscope is served under: next.config.js's basePath, from ROLLSCOPE_BASE_PATH at build time ("" at
 * the root). Next adds it to <Link>, router and asset URLs; everything else that names a path of this server — fetch,
 * EventSource, a plain <a> download, a redirect's Location — goes through {@link withBasePath}.
 */
export const BASE_PATH = process.env.NEXT_PUBLIC_BASE_PATH ?? "";

/** An absolute path of this server ("/api/rollouts") with the prefix; anything else (a full URL, "") unchanged. */
export function withBasePath(path: string): string {
  return path.startsWith("/") && !path.startsWith("//") ? `${BASE_PATH}${path}` : path;
}
