"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { LiveDelta, LiveSnapshot } from "@/lib/live/delta-log";
import type { FleetSnapshot } from "@/lib/rollouts/service";
import { applyLiveDeltas } from "./apply-live-deltas";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";

export type LiveStatus = "connecting" | "live" | "reconnecting";

/** The fleet overview rows, kept current by the /api/stream SSE feed writing into the React Query cache. */
export function useFleetRollouts() {
  const queryClient = useQueryClient();
  const [liveStatus, setLiveStatus] = useState<LiveStatus>("connecting");
  const query = useQuery({
    queryKey: queryKeys.fleet(),
    queryFn: () => fetchJson<FleetSnapshot>("/api/rollouts"),
    staleTime: Infinity,
  });

  useEffect(() => {
    const source = new EventSource("/api/stream");
    let pending: LiveDelta[] = [];
    let flush: number | undefined;
    const apply = () => {
      flush = undefined;
      const batch = pending;
      pending = [];
      queryClient.setQueryData<FleetSnapshot>(queryKeys.fleet(), (old) => (old ? applyLiveDeltas(old, batch) : old));
    };
    source.addEventListener("open", () => setLiveStatus("live"));
    source.addEventListener("error", () => setLiveStatus("reconnecting"));
    source.addEventListener("snapshot", (e) => {
      const snapshot = JSON.parse((e as MessageEvent<string>).data) as LiveSnapshot;
      pending = [];
      queryClient.setQueryData<FleetSnapshot>(queryKeys.fleet(), { ...snapshot, generatedAt: new Date().toISOString() });
    });
    source.addEventListener("delta", (e) => {
      pending.push(JSON.parse((e as MessageEvent<string>).data) as LiveDelta);
      flush ??= window.setTimeout(apply, 50);
    });
    return () => {
      source.close();
      if (flush !== undefined) window.clearTimeout(flush);
    };
  }, [queryClient]);

  return { ...query, liveStatus };
}
