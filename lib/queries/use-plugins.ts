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

/** Health older than this was answered while the server computes a newer report: ask again soon. */
const STALE_REPORT_MS = 15_000;

/**
 * Health per plugin over a range (`GET /api/plugins/health`); refreshed every 30 s, and 5 s after an answer the
 * server gave from an older report while it computes a newer one.
 */
export function usePluginHealth(range: HealthRange, cluster: string | null = null, plugin: string | null = null) {
  const params = new URLSearchParams({ range });
  if (cluster) params.set("cluster", cluster);
  if (plugin) params.set("plugin", plugin);
  return useQuery({
    queryKey: pluginQueryKeys.health(range, cluster, plugin),
    queryFn: ({ signal }) => fetchJson<PluginHealthReport>(`/api/plugins/health?${params.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      const computedAt = query.state.data ? Date.parse(query.state.data.computedAt) : Number.NaN;
      return Date.now() - computedAt > STALE_REPORT_MS ? 5_000 : 30_000;
    },
    retry: retryUnlessClientError,
  });
}
