"use client";

import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import {
  rolloutHistoryPath,
  rolloutMeasuredTrafficPath,
  rolloutPath,
  type HistoryRange,
  type InitialRolloutDetail,
} from "@/lib/contracts/rollout-detail";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { useFallbackInterval, useFocusedRollout } from "./live-stream";

/**
 * One rollout with its events, analysis runs and revisions (`GET /api/clusters/{c}/rollouts/{ns}/{name}`). While
 * the page is open the live stream writes the Rollout's live view into it (no request); the rest is asked for
 * again only when a recorded field changed, at most every 5 s.
 */
export const rolloutDetailQuery = (rollout: RolloutRef) =>
  queryOptions({
    queryKey: queryKeys.rolloutDetail(rollout),
    queryFn: ({ signal }) => fetchJson(rolloutPath(rollout), { signal }),
    staleTime: Infinity,
  });

/** The recorded weight timeline (`GET …/history?range=`): refreshed with the recorded fields, and every minute so the window slides. */
const rolloutHistoryQuery = (rollout: RolloutRef, range: HistoryRange) =>
  queryOptions({
    queryKey: queryKeys.rolloutHistory(rollout, range),
    queryFn: ({ signal }) => fetchJson(rolloutHistoryPath(rollout, range), { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });

/** Measured canary share from Prometheus (`GET …/measured-traffic?range=`): its own, slower query (every 30 s). */
const measuredTrafficQuery = (rollout: RolloutRef, range: HistoryRange) =>
  queryOptions({
    queryKey: queryKeys.rolloutMeasuredTraffic(rollout, range),
    queryFn: ({ signal }) => fetchJson(rolloutMeasuredTrafficPath(rollout, range), { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval: 30_000,
  });

/** `initial`: the detail the page's server render held, and when it was read (kept until the stream changes it). */
export function useRolloutDetail(cluster: string, namespace: string, name: string, initial: InitialRolloutDetail | null = null) {
  const rollout = useMemo(() => ({ cluster, namespace, name }), [cluster, namespace, name]);
  // The stream follows this Rollout while the page shows it; the fallback interval covers a lost stream.
  useFocusedRollout(rollout);
  return useQuery({
    ...rolloutDetailQuery(rollout),
    refetchInterval: useFallbackInterval(),
    ...(initial ? { initialData: initial.detail, initialDataUpdatedAt: initial.renderedAt } : {}),
  });
}

export function useRolloutHistory(cluster: string, namespace: string, name: string, range: HistoryRange) {
  return useQuery(rolloutHistoryQuery({ cluster, namespace, name }, range));
}

export function useMeasuredTraffic(cluster: string, namespace: string, name: string, range: HistoryRange) {
  return useQuery(measuredTrafficQuery({ cluster, namespace, name }, range));
}
