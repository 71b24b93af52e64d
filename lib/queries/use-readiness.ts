"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { READINESS_PATH, type ReadinessAnswer } from "@/lib/contracts/readiness";
import { FetchError } from "./fetch-json";
import { queryKeys } from "./keys";
import { withBasePath } from "@/lib/format/base-path";

/** 200 ready, 503 not ready: both carry the answer (the whole report once signed in). */
async function fetchReadiness(signal: AbortSignal): Promise<ReadinessAnswer> {
  const res = await fetch(withBasePath(READINESS_PATH), { signal, headers: { accept: "application/json" } });
  if (res.status !== 200 && res.status !== 503) throw new FetchError(res.status, "http_error", `${res.status} ${res.statusText}`);
  return (await res.json()) as ReadinessAnswer;
}

/** The server's readiness and the history recorder's state (`GET /api/readyz`), polled; faster while failing. */
const readinessQuery = () =>
  queryOptions({
    queryKey: queryKeys.readiness(),
    queryFn: ({ signal }) => fetchReadiness(signal),
    refetchInterval: (query) => (query.state.data?.ready && query.state.data.recorder?.state !== "failing" ? 15_000 : 5_000),
  });

export function useReadiness() {
  return useQuery(readinessQuery());
}
