import { withBasePath, BASE_PATH } from "@/lib/format/base-path";
import { FetchError } from "@/lib/queries/fetch-json";

/**
 * Where a signed-out browser goes when the API answers 401 (sign-in modes): the sign-in page, told to come back to
 * the page it was on; null for any other error, and on the sign-in page itself.
 */
export function signInRedirectFor(error: unknown, location: { pathname: string; search: string }): string | null {
  if (!(error instanceof FetchError) || error.status !== 401) return null;
  const path = location.pathname.startsWith(BASE_PATH) ? location.pathname.slice(BASE_PATH.length) || "/" : location.pathname;
  if (path.startsWith("/signin")) return null;
  return withBasePath(`/signin?returnTo=${encodeURIComponent(path + location.search)}`);
}
