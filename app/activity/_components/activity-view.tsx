"use client";

import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { ActivityFilters } from "@/components/activity/activity-filters";
import { ActivityList } from "@/components/activity/activity-list";
import { Card, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { useNow } from "@/components/ui/use-now";
import { ActivityQuery, activityPath, type ActivityFilters as Filters } from "@/lib/contracts/activity";
import { activityExportHref, useActivity } from "@/lib/queries/use-activity";
import { useClusters } from "@/lib/queries/use-clusters";
import { withBasePath } from "@/lib/format/base-path";

function readFilters(params: URLSearchParams): Filters {
  const parsed = ActivityQuery.safeParse(Object.fromEntries(params));
  return parsed.success ? parsed.data : { window: "1h" };
}

/** The fleet's "what changed": filters in the URL, newest change first, refreshed live. */
export function ActivityView() {
  const params = useSearchParams();
  const filters = useMemo(() => readFilters(new URLSearchParams(params.toString())), [params]);
  const { data, error, isPending, refetch } = useActivity(filters);
  const clusters = useClusters().data?.clusters.map((c) => c.name) ?? [];
  const now = useNow(10_000);
  const items = data?.items ?? [];
  const namespaces = [...new Set(items.map((i) => i.namespace))].sort();

  const setFilters = (next: Filters) => {
    const query = activityPath(next).split("?")[1] ?? "";
    // history.replaceState, which Next's router picks up at once (as the overview's filters do): a filter is not a
    // navigation, and router.replace waits on a server round trip that a busy server can hold up for seconds.
    window.history.replaceState(null, "", query ? `${window.location.pathname}?${query}` : window.location.pathname);
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-x-4">
        <h1 className="text-xl font-semibold tracking-tight">Activity</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Every change of every rollout you may read, newest first, and who made it where that can be known.
        </p>
      </div>
      <ActivityFilters
        filters={filters}
        clusters={clusters}
        namespaces={namespaces}
        onChange={setFilters}
        csvHref={withBasePath(activityExportHref(filters))}
      />
      <Card aria-labelledby="activity-title">
        <CardHeader
          id="activity-title"
          title="Changes"
          meta={data ? `${items.length}${data.truncated ? "+" : ""} changes · live` : undefined}
        />
        {isPending ? (
          <SkeletonRows rows={6} label="Loading changes…" />
        ) : error && !data ? (
          <ErrorState
            title="Could not load the activity"
            message={error instanceof Error ? error.message : String(error)}
            onRetry={() => void refetch()}
            className="m-4"
          />
        ) : items.length === 0 ? (
          <EmptyState title="No changes in this window">Changes appear here as the recorder stores them.</EmptyState>
        ) : (
          <ActivityList items={items} now={now} />
        )}
      </Card>
    </div>
  );
}
