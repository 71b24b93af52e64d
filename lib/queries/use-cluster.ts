"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { clusterPath } from "@/lib/contracts/clusters";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { useFallbackInterval } from "./live-stream";

/**
 * One cluster with its per-watch states and rollout counts by phase (`GET /api/clusters/{cluster}`). Cluster
 * deltas patch the state; rollout deltas in the cluster invalidate the counts.
 */
export const clusterQuery = (cluster: string) =>
  queryOptions({
    queryKey: queryKeys.cluster(cluster),
    queryFn: ({ signal }) => fetchJson(clusterPath(cluster), { signal }),
    staleTime: Infinity,
  });

export function useCluster(cluster: string) {
  return useQuery({ ...clusterQuery(cluster), refetchInterval: useFallbackInterval() });
}
