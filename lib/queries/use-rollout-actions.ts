"use client";

import { keepPreviousData, queryOptions, skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import {
  MAX_ACTIONS_BATCH,
  rolloutActionsBatchPath,
  rolloutActionsPath,
  runRolloutActionPath,
  type RolloutActionRequest,
  type RolloutActionResult,
  type RolloutActionsView,
} from "@/lib/contracts/rollout-actions";
import { statusOfCode } from "@/lib/errors/api-error";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { FetchError, fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";
import { getCsrfToken } from "./use-session";

export type { RolloutActionResult, RolloutActionsView };

type Waiter = { resolve: (view: RolloutActionsView) => void; reject: (error: unknown) => void };

/** The Rollouts whose buttons were asked for in this tick, by key (the browser's one batcher). */
const waiting = new Map<string, { rollout: RolloutRef; waiters: Waiter[] }>();
let flushScheduled = false;

/**
 * The buttons of one Rollout. Every card of the needs-attention queue asks at once; the asks of one tick go out as one
 * request (`GET /api/rollouts/actions?key=…`), not one per card — a single ask keeps its own endpoint.
 */
export function loadRolloutActions(rollout: RolloutRef): Promise<RolloutActionsView> {
  const key = `${rollout.cluster}/${rollout.namespace}/${rollout.name}`;
  return new Promise((resolve, reject) => {
    const entry = waiting.get(key) ?? { rollout, waiters: [] };
    entry.waiters.push({ resolve, reject });
    waiting.set(key, entry);
    if (!flushScheduled) {
      flushScheduled = true;
      setTimeout(() => void flushRolloutActions(), 0);
    }
  });
}

async function flushRolloutActions(): Promise<void> {
  flushScheduled = false;
  const batch = [...waiting.entries()];
  waiting.clear();
  const settle = (key: string, outcome: { view?: RolloutActionsView; error?: unknown }) => {
    for (const w of batch.find(([k]) => k === key)?.[1].waiters ?? []) {
      if (outcome.view) w.resolve(outcome.view);
      else w.reject(outcome.error);
    }
  };
  if (batch.length === 1) {
    const [key, { rollout }] = batch[0];
    await fetchJson(rolloutActionsPath(rollout)).then(
      (view) => settle(key, { view }),
      (error: unknown) => settle(key, { error }),
    );
    return;
  }
  for (let i = 0; i < batch.length; i += MAX_ACTIONS_BATCH) {
    const keys = batch.slice(i, i + MAX_ACTIONS_BATCH).map(([key]) => key);
    try {
      const answer = await fetchJson(rolloutActionsBatchPath(keys));
      for (const key of keys) {
        const view = answer.views[key];
        const error = answer.errors[key] ?? { code: "internal", message: "no answer for this rollout" };
        settle(key, view ? { view } : { error: new FetchError(statusOfCode(error.code), error.code, error.message) });
      }
    } catch (error) {
      for (const key of keys) settle(key, { error });
    }
  }
}

/**
 * What each action button shows (`GET …/actions`). The live stream asks again when the state the options were
 * computed from changes (`expected.fingerprint`), so buttons and the confirmation text match what the user sees.
 */
export const rolloutActionsQuery = (rollout: RolloutRef) =>
  queryOptions({
    queryKey: queryKeys.rolloutActions(rollout),
    queryFn: () => loadRolloutActions(rollout),
    staleTime: 15_000,
    // An open confirmation dialog must survive the refetch a live update triggers.
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof FetchError && error.status < 500) && count < 2,
  });

export function useRolloutActions(cluster: string, namespace: string, name: string) {
  return useQuery(rolloutActionsQuery({ cluster, namespace, name }));
}

/**
 * The `expected.fingerprint` of the Rollout as the live stream last showed it (only while a detail page focuses it):
 * the stream writes it, nothing fetches it. Undefined when the stream has not sent one; null for a deleted Rollout.
 */
export const liveActionFingerprintQuery = (rollout: RolloutRef) =>
  queryOptions<string | null>({ queryKey: queryKeys.liveActionFingerprint(rollout), queryFn: skipToken, staleTime: Infinity });

export function useLiveActionFingerprint(cluster: string, namespace: string, name: string): string | null | undefined {
  return useQuery(liveActionFingerprintQuery({ cluster, namespace, name })).data;
}

async function postAction(
  client: QueryClient,
  rollout: RolloutRef,
  body: RolloutActionRequest,
  freshToken: boolean,
): Promise<RolloutActionResult> {
  const token = await getCsrfToken(client, freshToken);
  return fetchJson(runRolloutActionPath(rollout), {
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
      const rollout = { cluster, namespace, name };
      try {
        return await postAction(client, rollout, body, false);
      } catch (err) {
        if (err instanceof FetchError && err.code === "csrf") return postAction(client, rollout, body, true);
        throw err;
      }
    },
    // Not awaited: the caller's onSuccess/onError should not wait for the refetch (the live stream refetches anyway).
    onSettled: () => {
      void client.invalidateQueries({ queryKey: queryKeys.rollout({ cluster, namespace, name }) });
    },
  });
}
