"use client";

import { useQuery, type QueryClient } from "@tanstack/react-query";
import type { SessionView } from "@/lib/contracts/session";
import { fetchJson } from "./fetch-json";

export type { SessionView };

export const sessionQueryKey = () => ["session"] as const;

/** GET /api/session: the user, the auth mode, read-only mode and the CSRF token (set as a cookie too). */
export function useSession() {
  return useQuery({
    queryKey: sessionQueryKey(),
    queryFn: ({ signal }) => fetchJson<SessionView>("/api/session", { signal, cache: "no-store" }),
    staleTime: 5 * 60_000,
    retry: 1,
  });
}

/** The CSRF token for a state-changing request; `fresh` refetches it (after a `csrf` refusal). */
export async function getCsrfToken(client: QueryClient, fresh = false): Promise<string> {
  if (fresh) await client.invalidateQueries({ queryKey: sessionQueryKey() });
  const session = await client.fetchQuery({
    queryKey: sessionQueryKey(),
    queryFn: () => fetchJson<SessionView>("/api/session", { cache: "no-store" }),
    staleTime: fresh ? 0 : 5 * 60_000,
  });
  return session.csrfToken;
}
