"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { RolloutActionRequest } from "@/lib/actions/schema";
import type { RolloutActionResult, RolloutActionsView } from "@/lib/services/rollout-actions";
import { rolloutApiPath } from "./api-paths";
import { FetchError, fetchJson } from "./fetch-json";
import { queryKeys } from "./query-keys";
import { getCsrfToken } from "./use-session";

export type { RolloutActionResult, RolloutActionsView };

/** Under the rollout's key, so the live stream's invalidation of a changed Rollout refreshes the buttons too. */
export const rolloutActionsQueryKey = (cluster: string, namespace: string, name: string) =>
  [...queryKeys.rollout(cluster, namespace, name), "actions"] as const;

function actionsPath(cluster: string, namespace: string, name: string): string {
  return `${rolloutApiPath(cluster, namespace, name)}/actions`;
}

/**
 * What each action button shows (`GET …/actions`). `resourceVersion` is the version the page shows: when it
 * changes, the options are refetched so buttons and the confirmation text match what the user sees.
 */
export function useRolloutActions(cluster: string, namespace: string, name: string, resourceVersion?: string | null) {
  return useQuery({
    queryKey: [...rolloutActionsQueryKey(cluster, namespace, name), resourceVersion ?? null] as const,
    queryFn: ({ signal }) => fetchJson<RolloutActionsView>(actionsPath(cluster, namespace, name), { signal }),
    staleTime: 15_000,
    // An open confirmation dialog must survive the refetch a live update triggers.
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof FetchError && error.status < 500) && count < 2,
  });
}

async function postAction(client: QueryClient, path: string, body: RolloutActionRequest, freshToken: boolean): Promise<RolloutActionResult> {
  const token = await getCsrfToken(client, freshToken);
  return fetchJson<RolloutActionResult>(path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-csrf-token": token },
    body: JSON.stringify(body),
  });
}

/** Sends one action with the state the user reviewed; a stale CSRF token (server restart) is renewed once. */
export function useRunRolloutAction(cluster: string, namespace: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: RolloutActionRequest) => {
      const path = actionsPath(cluster, namespace, name);
      try {
        return await postAction(client, path, body, false);
      } catch (err) {
        if (err instanceof FetchError && err.code === "csrf") return postAction(client, path, body, true);
        throw err;
      }
    },
    // Not awaited: the caller's onSuccess/onError should not wait for the refetch (the live stream refetches anyway).
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.rollout(cluster, namespace, name) });
    },
  });
}
