"use client";

import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { AuditFilters } from "@/components/audit/audit-filters";
import { AuditTable } from "@/components/audit/audit-table";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { useNow } from "@/components/ui/use-now";
import { auditExportHref, auditSearchParams, useAuditEntries, type AuditFilters as Filters } from "@/lib/queries/use-audit";
import { useClusters } from "@/lib/queries/use-clusters";
import { withBasePath } from "@/lib/format/base-path";

const FILTER_KEYS = ["cluster", "namespace", "rollout", "user", "action", "outcome", "from", "to"] as const;

function readFilters(params: URLSearchParams): Filters {
  const filters: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return filters as Filters;
}

/** The audit page: filters kept in the URL, newest entries first, CSV/JSON export of the filtered log. */
export function AuditLogView() {
  const params = useSearchParams();
  const filters = useMemo(() => readFilters(new URLSearchParams(params.toString())), [params]);
  const { data, error, isPending, fetchNextPage, hasNextPage, isFetchingNextPage, refetch } = useAuditEntries(filters);
  const clusters = useClusters().data?.clusters.map((c) => c.name) ?? [];
  const now = useNow(10_000);
  const entries = data?.pages.flatMap((p) => p.entries) ?? [];

  const setFilters = (next: Filters) => {
    const query = auditSearchParams(next).toString();
    // history.replaceState, which Next's router picks up at once (as the overview's filters do): a filter is not a
    // navigation, and router.replace waits on a server round trip that a busy server can hold up for seconds.
    window.history.replaceState(null, "", query ? `${window.location.pathname}?${query}` : window.location.pathname);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-x-4">
        <h1 className="text-xl font-semibold tracking-tight">Audit log</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Every attempted rollout action: who, when, the state before, and what happened.{" "}
          <Link
            href="/activity"
            className="font-medium text-sky-700 underline hover:no-underline dark:text-sky-300"
            data-testid="audit-activity-link"
          >
            Every change of every rollout, whoever made it: Activity
          </Link>
        </p>
      </div>
      <AuditFilters
        key={params.toString()}
        filters={filters}
        clusters={clusters}
        onChange={setFilters}
        csvHref={withBasePath(auditExportHref(filters, "csv"))}
        jsonHref={withBasePath(auditExportHref(filters, "json"))}
      />
      <Card aria-labelledby="audit-entries-title">
        <CardHeader id="audit-entries-title" title="Entries" meta={data ? `${entries.length}${hasNextPage ? "+" : ""} shown` : undefined} />
        {isPending ? (
          <SkeletonRows rows={6} />
        ) : error && !data ? (
          <ErrorState
            title="Could not load the audit log"
            message={error instanceof Error ? error.message : String(error)}
            onRetry={() => void refetch()}
            className="m-4"
          />
        ) : entries.length === 0 ? (
          <EmptyState title="No audit entries">Actions on rollouts are recorded here as they are attempted.</EmptyState>
        ) : (
          <>
            <AuditTable entries={entries} now={now} />
            {hasNextPage && (
              <div className="flex justify-center p-3">
                <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
                  {isFetchingNextPage ? "Loading…" : "Older entries"}
                </Button>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
