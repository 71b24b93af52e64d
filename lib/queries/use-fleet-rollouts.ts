"use client";

import { useQuery } from "@tanstack/react-query";
import type { FleetSnapshot } from "@/lib/rollouts/service";
import { fetchJson } from "./fetch-json";
import { useFallbackInterval } from "./live-stream";
import { queryKeys } from "./query-keys";

/**
 * The fleet overview rows (`GET /api/rollouts`). The tab's live stream (LiveStreamProvider) writes its snapshot
 * and deltas into this query's cache entry, so the list stays current without refetching.
 */
export function useFleetRollouts() {
  return useQuery({
    queryKey: queryKeys.fleet(),
    queryFn: async ({ signal, client, queryKey }) => {
      const startedAt = Date.now();
      const listed = await fetchJson<FleetSnapshot>("/api/rollouts", { signal });
      // The stream may have delivered a newer snapshot (and deltas) while this request was in flight.
      const state = client.getQueryState<FleetSnapshot>(queryKey);
      return state?.data && state.dataUpdatedAt > startedAt ? state.data : listed;
    },
    staleTime: Infinity,
    refetchInterval: useFallbackInterval(),
  });
}
