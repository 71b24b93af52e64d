"use client";

import { keepPreviousData, queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import { clusterPluginsPath, pluginHealthPath, pluginsPath, type HealthRange, type InitialPluginsPage } from "@/lib/contracts/plugins";
import { fetchJson, retryUnlessClientError } from "./fetch-json";
import { queryKeys } from "./keys";

/** Registry, fleet matrix and findings (`GET /api/plugins`); refreshed every 30 s. */
const pluginsOverviewQuery = () =>
  queryOptions({
    queryKey: queryKeys.pluginsOverview(),
    queryFn: ({ signal }) => fetchJson(pluginsPath(), { signal }),
    refetchInterval: 30_000,
    retry: retryUnlessClientError,
  });

/**
 * Health per plugin over a range (`GET /api/plugins/health`); refreshed every 30 s, and 5 s after the server answered
 * with an older report while it computes a newer one (`refreshing`).
 */
const pluginHealthQuery = (range: HealthRange, cluster: string | null = null, plugin: string | null = null) =>
  queryOptions({
    queryKey: queryKeys.pluginHealth(range, cluster, plugin),
    queryFn: ({ signal }) => fetchJson(pluginHealthPath(range, cluster, plugin), { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.refreshing ? 5_000 : 30_000),
    retry: retryUnlessClientError,
  });

export function usePluginsOverview() {
  return useQuery(pluginsOverviewQuery());
}

export function usePluginHealth(range: HealthRange, cluster: string | null = null, plugin: string | null = null) {
  return useQuery(pluginHealthQuery(range, cluster, plugin));
}

/**
 * Puts what the plugins page's server render read into the cache, as of when it was read; what the cache already holds
 * (newer: the page was open before) is kept.
 */
export function seedPluginsPage(client: QueryClient, initial: InitialPluginsPage): void {
  const { overview, health, range, cluster, plugin, renderedAt } = initial;
  const overviewKey = pluginsOverviewQuery().queryKey;
  if (overview && client.getQueryData(overviewKey) === undefined) client.setQueryData(overviewKey, overview, { updatedAt: renderedAt });
  const healthKey = pluginHealthQuery(range, cluster, plugin).queryKey;
  if (health && client.getQueryData(healthKey) === undefined) client.setQueryData(healthKey, health, { updatedAt: renderedAt });
}

/** One cluster's registered plugins and its controller (`GET /api/clusters/{cluster}/plugins`), read on demand; every 30 s. */
const clusterPluginsQuery = (cluster: string) =>
  queryOptions({
    queryKey: queryKeys.clusterPlugins(cluster),
    queryFn: ({ signal }) => fetchJson(clusterPluginsPath(cluster), { signal }),
    refetchInterval: 30_000,
    retry: retryUnlessClientError,
  });

export function useClusterPlugins(cluster: string) {
  return useQuery(clusterPluginsQuery(cluster));
}
