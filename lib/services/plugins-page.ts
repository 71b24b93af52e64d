import "server-only";
import { FULL_READ_SCOPE } from "@/lib/auth/read-scope";
import type { InitialPluginsPage } from "@/lib/contracts/plugins";
import { parsePluginsFilter } from "@/lib/plugins/plugins-filter";
import type { AppContext } from "@/lib/server/app-context";
import { getSharedPluginHealth } from "./plugin-health";
import { getPluginsOverview } from "./plugin-registry";

/** How long the page's first render waits for each part before it leaves the read to the browser. */
const INITIAL_PART_WAIT_MS = 1_000;

/** The part, or null when it failed or took longer than the wait (a shared report then still completes for the next ask). */
async function within<T>(work: Promise<T>, what: string): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([work, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), INITIAL_PART_WAIT_MS)))]);
  } catch (err) {
    console.error(`plugins page: could not render ${what} on the server`, err);
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The registry and the health report for the plugins page's server render, for the filter in its URL, so its first
 * paint shows them rather than placeholders: without sign-in only, as the overview's first page (a signed-in user's
 * read scope is the API routes' to check). Null when neither could be had within a second.
 */
export async function loadInitialPluginsPage(
  app: AppContext,
  search: Record<string, string | string[] | undefined>,
): Promise<InitialPluginsPage | null> {
  if (app.config.auth.mode !== "none") return null;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(search)) if (typeof value === "string") params.set(name, value);
  const { range, cluster, plugin } = parsePluginsFilter(params);
  const [overview, health] = await Promise.all([
    within(getPluginsOverview(app, { scope: FULL_READ_SCOPE }), "the registry"),
    within(
      getSharedPluginHealth(app, { range, ...(cluster ? { cluster } : {}), ...(plugin ? { plugin } : {}), scope: FULL_READ_SCOPE }),
      "the health report",
    ),
  ]);
  if (!overview && !health) return null;
  return { range, cluster, plugin, overview, health, renderedAt: Math.floor(app.now() / 1000) * 1000 };
}
