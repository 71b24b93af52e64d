import "server-only";
import { FULL_READ_SCOPE } from "@/lib/auth/read-scope";
import type { InitialPluginsPage } from "@/lib/contracts/plugins";
import { parsePluginsFilter } from "@/lib/plugins/plugins-filter";
import type { AppContext } from "@/lib/server/app-context";
import { getSharedPluginHealth } from "./plugin-health";
import { getPluginsOverview } from "./plugin-registry";
import { renderTimeOf, withinFirstRender } from "./first-render";

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
    withinFirstRender(getPluginsOverview(app, { scope: FULL_READ_SCOPE }), "the plugins registry"),
    withinFirstRender(
      getSharedPluginHealth(app, { range, ...(cluster ? { cluster } : {}), ...(plugin ? { plugin } : {}), scope: FULL_READ_SCOPE }),
      "the plugins health report",
    ),
  ]);
  if (!overview && !health) return null;
  return { range, cluster, plugin, overview, health, renderedAt: renderTimeOf(app) };
}
