import type { Browser, Page } from "@playwright/test";

/**
 * Holds the page's scripts back 1.5 s, so React hydrates in a later second than the server rendered in, and records
 * the page's errors. Returns the hydration errors seen so far: a mismatch makes React discard the server's HTML and
 * render the page again (minified errors #418/#423/#425).
 */
export async function holdScriptsAndWatchHydration(page: Page): Promise<() => string[]> {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.route("**/_next/static/**/*.js", async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  return () => errors.filter((e) => /hydrat|#418|#423|#425/i.test(e));
}

/**
 * Opens `url` in a new page with JavaScript off, to see what the server's HTML shows by itself. A Suspense boundary
 * around a large page lets React stream it as a hidden segment that an inline script reveals: without scripts it
 * stays hidden, and while the page hydrates a second, hidden copy of the page's elements is in the document.
 */
export async function openWithoutScripts(browser: Browser, url: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url);
  return { page, close: () => context.close() };
}
