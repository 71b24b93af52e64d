"use client";

import Link from "next/link";
import { describeConnection } from "@/components/clusters/cluster-chip";
import { ConnectionBadge } from "@/components/clusters/connection-badge";
import { Badge } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { SkeletonRows } from "@/components/ui/skeleton";
import { formatCount } from "@/lib/format/count";
import { clusterHref } from "@/lib/format/hrefs";
import { useClusters } from "@/lib/queries/use-clusters";

export function ClusterListView() {
  const { data, error, isPending, refetch } = useClusters();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-xl font-semibold tracking-tight">Clusters</h1>
      {isPending && <SkeletonRows rows={4} label="Loading clusters…" />}
      {error && !data && <ErrorState title="Could not load clusters" message={error.message} onRetry={() => void refetch()} />}
      {data && data.clusters.length === 0 && (
        <Card>
          <EmptyState title="No clusters configured">Add clusters to the Rollscope configuration to watch their rollouts.</EmptyState>
        </Card>
      )}
      {data && data.clusters.length > 0 && (
        <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
          {data.clusters.map((c) => (
            <li key={c.name}>
              <Link
                href={clusterHref(c.name)}
                data-testid="cluster-card"
                data-cluster={c.name}
                data-connection={c.connection}
                title={describeConnection(c)}
                className={cn(
                  "flex h-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 hover:border-slate-300 dark:border-slate-800 dark:bg-slate-900 dark:hover:border-slate-700",
                  focusRing,
                )}
              >
                <span className="flex flex-wrap items-center gap-2">
                  <span className="min-w-0 font-semibold wrap-anywhere">{c.name}</span>
                  {c.label && <Badge>{c.label}</Badge>}
                  <ConnectionBadge connection={c.connection} />
                </span>
                <span className="text-sm text-slate-600 dark:text-slate-400">
                  {formatCount(c.rolloutCount)} rollouts · controller in <span className="font-mono text-xs">{c.controllerNamespace}</span>
                </span>
                <span className="text-xs text-slate-500 dark:text-slate-400">
                  {c.connection} <RelativeTime at={c.since} />
                </span>
                {c.error && <span className="font-mono text-xs break-all text-rose-700 dark:text-rose-300">{c.error}</span>}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
