"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { HealthRange, PluginHealthReport, PluginsOverview } from "@/lib/plugins/view-types";
import { fetchJson, retryUnlessClientError } from "./fetch-json";

/** Query keys of the plugins page; one prefix refreshes everything about plugins. */
export const pluginQueryKeys = {
  all: () => ["plugins"] as const,
  overview: () => [...pluginQueryKeys.all(), "overview"] as const,
  health: (range: HealthRange, cluster: string | null, plugin: string | null) => [...pluginQueryKeys.all(), "health", range, cluster, plugin] as const,
};

/** Registry, fleet matrix and findings (`GET /api/plugins`); refreshed every 30 s. */
export function usePluginsOverview() {
  return useQuery({
    queryKey: pluginQueryKeys.overview(),
    queryFn: ({ signal }) => fetchJson<PluginsOverview>("/api/plugins", { signal }),
    refetchInterval: 30_000,
    retry: retryUnlessClientError,
  });
}

/**
 * Health per plugin over a range (`GET /api/plugins/health`); refreshed every 30 s, and 5 s after the server answered
 * with an older report while it computes a newer one (`refreshing`).
 */
export function usePluginHealth(range: HealthRange, cluster: string | null = null, plugin: string | null = null) {
  const params = new URLSearchParams({ range });
  if (cluster) params.set("cluster", cluster);
  if (plugin) params.set("plugin", plugin);
  return useQuery({
    queryKey: pluginQueryKeys.health(range, cluster, plugin),
    queryFn: ({ signal }) => fetchJson<PluginHealthReport>(`/api/plugins/health?${params.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.refreshing ? 5_000 : 30_000),
    retry: retryUnlessClientError,
  });
}
