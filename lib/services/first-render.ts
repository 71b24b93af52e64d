import "server-only";
import type { AppContext } from "@/lib/server/app-context";

/** How long a page's server render waits for a part before it leaves the read to the browser. */
const FIRST_RENDER_WAIT_MS = 1_000;

/**
 * The part a page's server render shows, or null when it failed or took longer than a second (the browser then asks
 * for it; a shared report still completes for that ask).
 */
export async function withinFirstRender<T>(work: Promise<T>, what: string): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), FIRST_RENDER_WAIT_MS)))]);
  } catch (err) {
    console.error(`could not render ${what} on the server`, err);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The instant a page's server render states its times against ("3m ago", a pause's countdown), to the second: the
 * browser's first render uses the same instant, so the hydrated page reads exactly as its HTML did.
 */
export function renderTimeOf(app: AppContext): number {
  return Math.floor(app.now() / 1000) * 1000;
}
