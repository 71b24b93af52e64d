"use client";

import { useDeferredValue, useEffect, useMemo, useRef } from "react";
import { AttentionQueue } from "@/components/rollouts/attention-queue";
import { buildAttentionQueue } from "@/components/rollouts/attention-queue-model";
import { countByPhase, filterRollouts, listFacets, PAGE_SIZE, pageCount, sortRollouts, type FleetSortKey } from "@/components/rollouts/fleet-filter";
import { FleetFilters } from "@/components/rollouts/fleet-filters";
import { FleetTable } from "@/components/rollouts/fleet-table";
import { PhaseCountChips } from "@/components/rollouts/phase-count-chips";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Kbd } from "@/components/ui/kbd";
import { Pagination } from "@/components/ui/pagination";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { RolloutSummary } from "@/lib/fleet/summary";
import { useFleetRollouts } from "@/lib/queries/use-fleet-rollouts";
import { ClusterNotices } from "./cluster-notices";
import { useFleetView } from "./use-fleet-view";

const NO_ROWS: RolloutSummary[] = [];

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

/** `/` focuses the search box; j/↓ from nowhere enters the table. */
function useOverviewShortcuts(searchRef: React.RefObject<HTMLInputElement | null>) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return;
      if (e.key === "/") {
        e.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if ((e.key === "j" || e.key === "ArrowDown") && (e.target === document.body || e.target === document.documentElement)) {
        const first = document.querySelector<HTMLElement>('[data-testid="rollout-row"]');
        if (first) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [searchRef]);
}

export function FleetOverview() {
  const { data, error, isPending, refetch } = useFleetRollouts();
  const { view, update, clear, resetKey } = useFleetView();
  const searchRef = useRef<HTMLInputElement>(null);
  useOverviewShortcuts(searchRef);

  const rows = data?.rollouts ?? NO_ROWS;
  // Filtering 5,000 rows runs at lower priority than the click or keystroke that asked for it.
  const deferred = useDeferredValue(view);
  const { q, cluster, namespace, router, phase, sort, dir } = deferred;

  const base = useMemo(() => filterRollouts(rows, { q, cluster, namespace, router, phase: "" }), [rows, q, cluster, namespace, router]);
  const counts = useMemo(() => countByPhase(base), [base]);
  const attention = useMemo(() => buildAttentionQueue(base), [base]);
  const sorted = useMemo(() => sortRollouts(phase ? base.filter((r) => r.phase === phase) : base, sort, dir), [base, phase, sort, dir]);
  const facets = useMemo(() => listFacets(rows, view.cluster), [rows, view.cluster]);

  const pages = pageCount(sorted.length);
  const page = Math.min(view.page, pages);
  const pageRows = useMemo(() => sorted.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), [sorted, page]);

  const onSort = (key: FleetSortKey) =>
    update({ sort: key, dir: view.sort === key && view.dir === "asc" ? "desc" : view.sort === key ? "asc" : key === "changed" ? "desc" : "asc", page: 1 });
  const pagination = <Pagination page={page} pageCount={pages} total={sorted.length} pageSize={PAGE_SIZE} onPage={(p) => update({ page: p })} />;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
          <h1 className="text-xl font-semibold tracking-tight">Rollouts</h1>
          {data && (
            <p className="text-sm text-slate-500 dark:text-slate-400">
              {rows.length.toLocaleString()} rollouts in {data.clusters.length} clusters · every namespace
            </p>
          )}
          <p className="ml-auto hidden text-xs text-slate-500 lg:block dark:text-slate-400">
            <Kbd>/</Kbd> search · <Kbd>j</Kbd>/<Kbd>k</Kbd> or <Kbd>↑</Kbd>/<Kbd>↓</Kbd> move · <Kbd>Enter</Kbd> open
          </p>
        </div>
        <FleetFilters key={resetKey} view={view} facets={facets} onChange={update} onClear={clear} searchRef={searchRef} />
        <PhaseCountChips counts={counts} total={base.length} active={view.phase} onSelect={(p) => update({ phase: p, page: 1 })} />
      </div>

      {error && !data && <ErrorState title="Could not load rollouts" message={error.message} onRetry={() => void refetch()} />}
      {isPending && (
        <Card>
          <SkeletonRows rows={10} label="Loading rollouts…" className="p-4" />
        </Card>
      )}

      {data && (
        <>
          <ClusterNotices clusters={data.clusters} />
          <AttentionQueue entries={attention} total={base.length} />
          <Card aria-labelledby="rollouts-title">
            <CardHeader
              id="rollouts-title"
              title="All rollouts"
              meta={sorted.length === rows.length ? `${rows.length.toLocaleString()} total` : `${sorted.length.toLocaleString()} of ${rows.length.toLocaleString()} match`}
              actions={sorted.length > 0 && pagination}
            />
            {rows.length === 0 ? (
              <EmptyState title="No rollouts yet">
                None of the {data.clusters.length} configured clusters has reported an Argo Rollout. Clusters that are still connecting show in
                the header.
              </EmptyState>
            ) : sorted.length === 0 ? (
              <EmptyState title="No rollouts match these filters">
                <Button variant="secondary" onClick={clear} className="mt-2">
                  Clear filters
                </Button>
              </EmptyState>
            ) : (
              <>
                <div className="max-lg:overflow-x-auto">
                  <FleetTable rows={pageRows} sort={view.sort} dir={view.dir} onSort={onSort} />
                </div>
                {pages > 1 && <div className="flex justify-end border-t border-slate-200 px-4 py-2 dark:border-slate-800">{pagination}</div>}
              </>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
