import { z } from "zod";
import { HEALTH_RANGES, type HealthRange } from "@/lib/plugins/view-types";
import { queryString } from "./paths";

/*
 * `GET /api/plugins`                              → PluginsOverview (registry, fleet matrix, findings)
 * `GET /api/plugins/health?range=&cluster=&plugin=` → PluginHealthReport
 */

export type { HealthRange, PluginHealthReport, PluginHealthView, PluginsOverview } from "@/lib/plugins/view-types";
export { HEALTH_RANGES };

export const PluginHealthQuery = z.object({
  range: z.enum(HEALTH_RANGES).default("1h"),
  cluster: z.string().min(1).optional(),
  plugin: z.string().regex(/^[a-zA-Z0-9-]+\/[a-zA-Z0-9_.-]+$/, { message: "must be <org>/<name>" }).optional(),
});
export type PluginHealthQuery = z.infer<typeof PluginHealthQuery>;

export const pluginsPath = () => "/api/plugins";

export function pluginHealthPath(range: HealthRange, cluster: string | null = null, plugin: string | null = null): string {
  return `/api/plugins/health${queryString({ range, cluster, plugin })}`;
}
