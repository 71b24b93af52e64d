"use client";

import { useQuery } from "@tanstack/react-query";
import type { ClusterStateView } from "@/lib/fleet/types";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import { fetchJson } from "./fetch-json";
import { useFallbackInterval } from "./live-stream";
import { clusterApiPath } from "./api-paths";
import { queryKeys } from "./query-keys";

export interface ClusterDetailResponse {
  cluster: ClusterStateView;
  phaseCounts: Partial<Record<RolloutPhase, number>>;
}

/**
 * One cluster with its per-watch states and rollout counts by phase (`GET /api/clusters/{cluster}`). Cluster
 * deltas patch the state; rollout deltas in the cluster invalidate the counts.
 */
export function useCluster(cluster: string) {
  return useQuery({
    queryKey: queryKeys.cluster(cluster),
    queryFn: ({ signal }) => fetchJson<ClusterDetailResponse>(clusterApiPath(cluster), { signal }),
    staleTime: Infinity,
    refetchInterval: useFallbackInterval(),
  });
}
