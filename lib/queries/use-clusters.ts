"use client";

import { useQuery } from "@tanstack/react-query";
import type { ClusterStateView } from "@/lib/fleet/types";
import { fetchJson } from "./fetch-json";
import { useFallbackInterval } from "./live-stream";
import { queryKeys } from "./query-keys";

export interface ClusterListResponse {
  clusters: ClusterStateView[];
}

/** Every configured cluster and its connection state (`GET /api/clusters`); cluster deltas patch it live. */
export function useClusters() {
  return useQuery({
    queryKey: queryKeys.clusters(),
    queryFn: ({ signal }) => fetchJson<ClusterListResponse>("/api/clusters", { signal }),
    staleTime: Infinity,
    refetchInterval: useFallbackInterval(),
  });
}
