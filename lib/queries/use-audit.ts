"use client";

import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { auditExportPath, auditPath, type AuditFilters } from "@/lib/contracts/audit";
import { fetchJson, retryUnlessClientError } from "./fetch-json";
import { queryKeys } from "./keys";

export type { AuditFilters };

/** The page's own query string for a set of filters (empty filters are left out). */
export function auditSearchParams(filters: AuditFilters): URLSearchParams {
  return new URLSearchParams(auditPath(filters).split("?")[1] ?? "");
}

/** The audit log, newest first, one page of 100 at a time (`GET /api/audit`). */
const auditEntriesQuery = (filters: AuditFilters) =>
  infiniteQueryOptions({
    queryKey: queryKeys.audit(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => fetchJson(auditPath(filters, pageParam), { signal }),
    getNextPageParam: (last) => last.nextCursor,
    retry: retryUnlessClientError,
  });

export function useAuditEntries(filters: AuditFilters) {
  return useInfiniteQuery(auditEntriesQuery(filters));
}

export function auditExportHref(filters: AuditFilters, format: "csv" | "json"): string {
  return auditExportPath(filters, format);
}
