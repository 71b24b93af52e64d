"use client";

import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import {
  rolloutActionsPath,
  type RolloutActionRequest,
  type RolloutActionResult,
  type RolloutActionsView,
} from "@/lib/contracts/rollout-actions";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { FetchError, fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { getCsrfToken } from "./use-session";

export type { RolloutActionResult, RolloutActionsView };

/**
 * What each action button shows (`GET …/actions`). The live stream asks again when the state the options were
 * computed from changes (`expected.fingerprint`), so buttons and the confirmation text match what the user sees.
 */
export const rolloutActionsQuery = (rollout: RolloutRef) =>
  queryOptions({
    queryKey: queryKeys.rolloutActions(rollout),
    queryFn: ({ signal }) => fetchJson<RolloutActionsView>(rolloutActionsPath(rollout), { signal }),
    staleTime: 15_000,
    // An open confirmation dialog must survive the refetch a live update triggers.
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof FetchError && error.status < 500) && count < 2,
  });

export function useRolloutActions(cluster: string, namespace: string, name: string) {
  return useQuery(rolloutActionsQuery({ cluster, namespace, name }));
}

async function postAction(
  client: QueryClient,
  path: string,
  body: RolloutActionRequest,
  freshToken: boolean,
): Promise<RolloutActionResult> {
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
      const path = rolloutActionsPath({ cluster, namespace, name });
      try {
        return await postAction(client, path, body, false);
      } catch (err) {
        if (err instanceof FetchError && err.code === "csrf") return postAction(client, path, body, true);
        throw err;
      }
    },
    // Not awaited: the caller's onSuccess/onError should not wait for the refetch (the live stream refetches anyway).
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.rollout({ cluster, namespace, name }) });
    },
  });
}
