"use client";

import { useQuery } from "@tanstack/react-query";
import type { FleetSnapshot } from "@/lib/rollouts/service";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

export function useFleetRollouts() {
  return useQuery({
    queryKey: queryKeys.fleet(),
    queryFn: () => fetchJson<FleetSnapshot>("/api/rollouts"),
    refetchInterval: 5_000,
  });
}
