"use client";

import { useEffect, useRef } from "react";
import { AttentionQueue } from "@/components/rollouts/attention-queue";
import { FleetFilters } from "@/components/rollouts/fleet-filters";
import { FleetTable } from "@/components/rollouts/fleet-table";
import { PhaseCountChips } from "@/components/rollouts/phase-count-chips";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { Kbd } from "@/components/ui/kbd";
import { Pagination } from "@/components/ui/pagination";
import { ScrollArea } from "@/components/ui/scroll-area";
import { SkeletonRows } from "@/components/ui/skeleton";
import { RenderTimeProvider } from "@/components/ui/use-now";
import { formatCount } from "@/lib/format/count";
import type { InitialFleetPage } from "@/lib/overview/fleet-page";
import type { FleetFacets, FleetSortKey } from "@/lib/overview/fleet-query";
import { useFleetPage } from "@/lib/queries/use-fleet-page";
import { ClusterNotices } from "./cluster-notices";
import { useFleetView } from "./use-fleet-view";

const NO_FACETS: FleetFacets = { clusters: [], namespaces: [], routers: [] };

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

/**
 * The fleet overview: the server filters, sorts and pages (`/api/rollouts`), so the browser holds one page however
 * large the fleet is; the live stream patches the rows shown and the page is asked for again as the fleet changes.
 */
export function FleetOverview({ initial = null }: { initial?: InitialFleetPage | null }) {
  const { view, update, clear, resetKey } = useFleetView();
  const { data, error, isPending, isPlaceholderData, refetch } = useFleetPage(view, initial);
  const searchRef = useRef<HTMLInputElement>(null);
  useOverviewShortcuts(searchRef);

  const total = data?.total ?? 0;
  const matched = data?.matched ?? 0;
  const page = data?.page ?? 1;
  const pages = data?.pageCount ?? 1;

  const onSort = (key: FleetSortKey) =>
    update({
      sort: key,
      dir: view.sort === key && view.dir === "asc" ? "desc" : view.sort === key ? "asc" : key === "changed" ? "desc" : "asc",
      page: 1,
    });
  const pagination = data && (
    <Pagination page={page} pageCount={pages} total={matched} pageSize={data.pageSize} onPage={(p) => update({ page: p })} />
  );

  return (
    <RenderTimeProvider at={initial?.renderedAt ?? null}>
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-baseline gap-x-4 gap-y-1">
            <h1 className="text-xl font-semibold tracking-tight">Rollouts</h1>
            {data && (
              <p className="text-sm text-slate-500 dark:text-slate-400">
                {formatCount(total)} rollouts in {data.clusters.length} clusters · every namespace
              </p>
            )}
            <p className="ml-auto hidden text-xs text-slate-500 lg:block dark:text-slate-400">
              <Kbd>/</Kbd> search · <Kbd>j</Kbd>/<Kbd>k</Kbd> or <Kbd>↑</Kbd>/<Kbd>↓</Kbd> move · <Kbd>Enter</Kbd> open
            </p>
          </div>
          <FleetFilters
            key={resetKey}
            view={view}
            facets={data?.facets ?? NO_FACETS}
            onChange={update}
            onClear={clear}
            searchRef={searchRef}
          />
          {data && (
            <PhaseCountChips counts={data.counts} total={data.base} active={view.phase} onSelect={(p) => update({ phase: p, page: 1 })} />
          )}
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
            <AttentionQueue
              entries={data.attention.entries}
              count={data.attention.total}
              critical={data.attention.critical}
              total={data.base}
            />
            <Card aria-labelledby="rollouts-title" aria-busy={isPlaceholderData} data-testid="fleet-card">
              <CardHeader
                id="rollouts-title"
                title="All rollouts"
                meta={matched === total ? `${formatCount(total)} total` : `${formatCount(matched)} of ${formatCount(total)} match`}
                actions={matched > 0 && pagination}
              />
              {total === 0 ? (
                <EmptyState title="No rollouts yet">
                  None of the {data.clusters.length} configured clusters has reported an Argo Rollout. Clusters that are still connecting
                  show in the header.
                </EmptyState>
              ) : matched === 0 ? (
                <EmptyState title="No rollouts match these filters">
                  <Button variant="secondary" onClick={clear} className="mt-2">
                    Clear filters
                  </Button>
                </EmptyState>
              ) : (
                <>
                  {/* Scrolls on narrow screens only: from lg up the page scrolls, so the sticky header stays in view. */}
                  <ScrollArea label="Rollouts table" className="lg:overflow-visible">
                    <FleetTable rows={data.rows} sort={view.sort} dir={view.dir} onSort={onSort} />
                  </ScrollArea>
                  {pages > 1 && (
                    <div className="flex justify-end border-t border-slate-200 px-4 py-2 dark:border-slate-800">{pagination}</div>
                  )}
                </>
              )}
            </Card>
          </>
        )}
      </div>
    </RenderTimeProvider>
  );
}
