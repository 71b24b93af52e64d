"use client";

import { useQuery } from "@tanstack/react-query";
import type { RolloutDetail } from "@/lib/rollouts/detail-types";
import { fetchJson } from "./fetch-json";
import { useFallbackInterval } from "./live-stream";
import { rolloutApiPath } from "./api-paths";
import { queryKeys } from "./query-keys";

/**
 * One rollout with its events, analysis runs and revisions (`GET /api/clusters/{c}/rollouts/{ns}/{name}`).
 * The live stream invalidates it whenever a delta for this rollout arrives.
 */
export function useRolloutDetail(cluster: string, namespace: string, name: string) {
  return useQuery({
    queryKey: queryKeys.rolloutDetail(cluster, namespace, name),
    queryFn: ({ signal }) =>
      fetchJson<RolloutDetail>(rolloutApiPath(cluster, namespace, name), { signal }),
    staleTime: Infinity,
    refetchInterval: useFallbackInterval(),
  });
}
