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

/** How long a redirect to sign-in stands before another 401 may start one again (the first may have been stopped). */
const REDIRECT_STANDS_MS = 10_000;

/**
 * The query cache's 401 handler: the first 401 goes to the sign-in page and the others that arrive meanwhile (every
 * panel's query fails at once when a session ends) do nothing. Each navigation would cancel the one before it.
 */
export function createSignInRedirect(
  navigate: (target: string) => void,
  location: () => { pathname: string; search: string },
  now: () => number = Date.now,
): (error: unknown) => void {
  let redirectedAt = Number.NEGATIVE_INFINITY;
  return (error) => {
    const target = signInRedirectFor(error, location());
    if (!target || now() - redirectedAt < REDIRECT_STANDS_MS) return;
    redirectedAt = now();
    navigate(target);
  };
}
