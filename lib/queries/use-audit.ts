"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import type { AuditPage, AuditQueryInput } from "@/lib/audit/schema";
import { fetchJson, retryUnlessClientError } from "./fetch-json";

export type AuditFilters = Omit<AuditQueryInput, "limit" | "before">;

export const auditQueryKey = (filters: AuditFilters) => ["audit", filters] as const;

/** Query string for the audit API and its exports; empty filters are left out. */
export function auditSearchParams(filters: AuditFilters, extra: Record<string, string> = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== undefined && value !== null && String(value) !== "") params.set(key, String(value));
  }
  return params;
}

/** The audit log, newest first, one page of 100 at a time (`GET /api/audit`). */
export function useAuditEntries(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: auditQueryKey(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const params = auditSearchParams(filters, pageParam === null ? {} : { before: String(pageParam) });
      return fetchJson<AuditPage>(`/api/audit?${params}`, { signal });
    },
    getNextPageParam: (last) => last.nextCursor,
    retry: retryUnlessClientError,
  });
}

export function auditExportHref(filters: AuditFilters, format: "csv" | "json"): string {
  return `/api/audit/export?${auditSearchParams(filters, { format })}`;
}
