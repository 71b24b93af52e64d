import { z } from "zod";
import { PLUGIN_NAME } from "@/lib/plugins/plugins-filter";
import { HEALTH_RANGES, type HealthRange, type PluginHealthReport, type PluginsOverview } from "@/lib/plugins/view-types";
import type { ControllerStatusView } from "@/lib/plugins/controller-status";
import type { PluginClusterView } from "@/lib/plugins/view-types";
import { apiPath, clusterPath, queryString } from "./paths";

/*
 * `GET /api/plugins`                              → PluginsOverview (registry, fleet matrix, findings)
 * `GET /api/plugins/health?range=&cluster=&plugin=` → PluginHealthReport
 * `GET /api/clusters/{cluster}/plugins`            → ClusterPluginsResponse (the cluster page's plugins and controller)
 */

export interface ClusterPluginsResponse {
  cluster: string;
  registry: PluginClusterView;
  controller: ControllerStatusView;
}

export type { ControllerStatusView };

export const clusterPluginsPath = (cluster: string) => apiPath("GET /api/clusters/[cluster]/plugins", `${clusterPath(cluster)}/plugins`);

export type { HealthRange, PluginHealthReport, PluginHealthView, PluginsOverview } from "@/lib/plugins/view-types";

export const PluginHealthQuery = z.object({
  range: z.enum(HEALTH_RANGES).default("1h"),
  cluster: z.string().min(1).optional(),
  plugin: PLUGIN_NAME.optional(),
});
export type PluginHealthQuery = z.infer<typeof PluginHealthQuery>;

export const pluginsPath = () => apiPath("GET /api/plugins", "/api/plugins");

export function pluginHealthPath(range: HealthRange, cluster: string | null = null, plugin: string | null = null) {
  return apiPath("GET /api/plugins/health", `/api/plugins/health${queryString({ range, cluster, plugin })}`);
}

/**
 * What the plugins page's server render read (without sign-in), for the filter in its URL, and when: each part null
 * when it could not be had within a moment (the browser then asks for it).
 */
export interface InitialPluginsPage {
  range: HealthRange;
  cluster: string | null;
  plugin: string | null;
  overview: PluginsOverview | null;
  health: PluginHealthReport | null;
  renderedAt: number;
}
