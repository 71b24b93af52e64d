"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { clustersPath } from "@/lib/contracts/clusters";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { useFallbackInterval } from "./live-stream";

/** Every configured cluster and its connection state (`GET /api/clusters`); cluster deltas patch it live. */
export const clustersQuery = () =>
  queryOptions({
    queryKey: queryKeys.clusters(),
    queryFn: ({ signal }) => fetchJson(clustersPath(), { signal }),
    staleTime: Infinity,
  });

export function useClusters() {
  return useQuery({ ...clustersQuery(), refetchInterval: useFallbackInterval() });
}
