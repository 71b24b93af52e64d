"use client";

import { queryOptions, useQuery, type QueryClient } from "@tanstack/react-query";
import { sessionPath, type SessionView } from "@/lib/contracts/session";
import { fetchJson } from "./fetch-json";
import { queryKeys } from "./keys";

export type { SessionView };

/** GET /api/session: the user, the auth mode, read-only mode and the CSRF token (set as a cookie too). */
const sessionQuery = () =>
  queryOptions({
    queryKey: queryKeys.session(),
    queryFn: ({ signal }) => fetchJson(sessionPath(), { signal, cache: "no-store" }),
    staleTime: 5 * 60_000,
    retry: 1,
  });

export function useSession() {
  return useQuery(sessionQuery());
}

/** The CSRF token for a state-changing request; `fresh` refetches it (after a `csrf` refusal). */
export async function getCsrfToken(client: QueryClient, fresh = false): Promise<string> {
  if (fresh) await client.invalidateQueries({ queryKey: sessionQuery().queryKey });
  const session = await client.fetchQuery({ ...sessionQuery(), staleTime: fresh ? 0 : 5 * 60_000 });
  return session.csrfToken;
}
