"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { rolloutWorkloadPath } from "@/lib/contracts/rollout-workload";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";

/** How often an open detail page reads the ReplicaSets and Pods again: pods change without the Rollout changing. */
const WORKLOAD_REFRESH_MS = 5_000;
/** Right after an undo, until the new revision shows: the controller re-labels ReplicaSets without touching the Rollout. */
const WORKLOAD_FOLLOW_MS = 500;

/**
 * The Rollout's ReplicaSets and Pods with the CLI's numbers (`GET …/replicasets`). The server keeps nothing for it:
 * it is read from the cluster while a detail page asks, every few seconds and whenever the Rollout changes (the
 * stream invalidates everything under the Rollout's key).
 */
const rolloutWorkloadQuery = (rollout: RolloutRef, following = false) =>
  queryOptions({
    queryKey: queryKeys.rolloutWorkload(rollout),
    queryFn: ({ signal }) => fetchJson(rolloutWorkloadPath(rollout), { signal }),
    staleTime: 1_000,
    refetchInterval: following ? WORKLOAD_FOLLOW_MS : WORKLOAD_REFRESH_MS,
  });

/** `following`: read twice a second (after an action that makes a new revision, until it shows). */
export function useRolloutWorkload(cluster: string, namespace: string, name: string, following = false) {
  const rollout = useMemo(() => ({ cluster, namespace, name }), [cluster, namespace, name]);
  return useQuery(rolloutWorkloadQuery(rollout, following));
}
