"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { HistoryRange, RolloutHistory } from "@/lib/rollouts/detail-types";
import { fetchJson } from "./fetch-json";
import { rolloutApiPath } from "./api-paths";
import { queryKeys } from "./query-keys";

/**
 * The recorded weight timeline of one rollout (`GET …/history?range=`). Invalidated with the detail on every
 * live delta for the rollout; refreshed every minute as well so the time window keeps sliding when nothing happens.
 */
export function useRolloutHistory(cluster: string, namespace: string, name: string, range: HistoryRange) {
  return useQuery({
    queryKey: queryKeys.rolloutHistory(cluster, namespace, name, range),
    queryFn: ({ signal }) =>
      fetchJson<RolloutHistory>(`${rolloutApiPath(cluster, namespace, name)}/history?range=${range}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}
