"use client";

import Link from "next/link";
import { ConnectionBadge } from "@/components/clusters/connection-badge";
import { ClusterPluginsCard } from "@/components/plugins/cluster-plugins-card";
import { WatchTable } from "@/components/clusters/watch-table";
import { AttentionQueue } from "@/components/rollouts/attention-queue";
import { DEFAULT_FLEET_VIEW, PHASES } from "@/lib/overview/fleet-query";
import { PHASE_TONE } from "@/components/rollouts/phase-badge";
import { Badge, DOT_TONES } from "@/components/ui/badge";
import { buttonClasses, focusRing } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import { formatCount } from "@/lib/format/count";
import { overviewHref } from "@/lib/format/hrefs";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import { FetchError } from "@/lib/queries/fetch-json";
import { useCluster } from "@/lib/queries/use-cluster";
import { useFleetPage } from "@/lib/queries/use-fleet-page";

function ClusterAttention({ cluster }: { cluster: string }) {
  // The queue and its counts are the cluster's: the stream carries only this cluster's changes for them.
  const { data } = useFleetPage({ ...DEFAULT_FLEET_VIEW, cluster }, null, cluster);
  if (!data) return null;
  return (
    <AttentionQueue entries={data.attention.entries} count={data.attention.total} critical={data.attention.critical} total={data.base} />
  );
}

/**
 * One cluster: connection and per-watch state (patched live from cluster deltas) and rollout counts by phase
 * (refetched when a rollout in the cluster changes), each count linking to the filtered overview.
 */
export function ClusterView({ cluster }: { cluster: string }) {
  const { data, error, isPending, refetch } = useCluster(cluster);

  if (isPending) {
    return (
      <div className="flex flex-col gap-4">
        <Skeleton className="h-8 w-64" />
        <SkeletonRows rows={6} label="Loading cluster…" />
      </div>
    );
  }
  if (!data) {
    const notFound = error instanceof FetchError && error.status === 404;
    return (
      <div className="flex flex-col gap-3">
        <ErrorState
          title={notFound ? "Cluster not found" : "Could not load this cluster"}
          message={error?.message}
          onRetry={notFound ? undefined : () => void refetch()}
        />
        <Link href="/clusters" className={buttonClasses("secondary", "self-start")}>
          All clusters
        </Link>
      </div>
    );
  }

  const { cluster: state, phaseCounts } = data;
  const total = PHASES.reduce((sum, p) => sum + (phaseCounts[p] ?? 0), 0);
  return (
    <div className="flex flex-col gap-4" data-testid="cluster-page" data-cluster={state.name}>
      {error && (
        <ErrorState title="Could not refresh; showing the last known state" message={error.message} onRetry={() => void refetch()} />
      )}
      <header className="flex flex-col gap-2">
        <nav aria-label="Breadcrumb" className="text-sm text-slate-500 wrap-anywhere dark:text-slate-400">
          <Link href="/clusters" className={cn("hover:underline", focusRing)}>
            Clusters
          </Link>{" "}
          / <span className="text-slate-700 dark:text-slate-300">{state.name}</span>
        </nav>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 text-2xl font-semibold tracking-tight wrap-anywhere">{state.name}</h1>
          {state.label && <Badge>{state.label}</Badge>}
          <ConnectionBadge connection={state.connection} />
          <span className="text-sm text-slate-600 dark:text-slate-400" data-testid="connection-since">
            since <time dateTime={state.since}>{formatAbsoluteTime(state.since)}</time> (<RelativeTime at={state.since} />)
          </span>
        </div>
        {state.error && <ErrorState title={`Cluster ${state.connection}`} message={state.error} className="max-w-4xl" />}
        <dl className="flex flex-wrap gap-x-8 gap-y-1 text-sm wrap-anywhere">
          <div className="flex min-w-0 gap-2">
            <dt className="shrink-0 text-slate-500 dark:text-slate-400">Name</dt>
            <dd className="font-mono text-xs leading-5">{state.name}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-slate-500 dark:text-slate-400">Controller namespace</dt>
            <dd className="font-mono text-xs leading-5" data-testid="controller-namespace">
              {state.controllerNamespace}
            </dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-slate-500 dark:text-slate-400">Rollouts</dt>
            <dd className="tabular-nums">{formatCount(state.rolloutCount)}</dd>
          </div>
        </dl>
      </header>

      <div className="grid items-start gap-4 xl:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card aria-labelledby="phases-title">
          <CardHeader
            id="phases-title"
            title="Rollouts by phase"
            actions={
              <Link href={overviewHref({ cluster: state.name })} className={buttonClasses("ghost")}>
                All {formatCount(total)} →
              </Link>
            }
          />
          <CardBody>
            <ul className="grid grid-cols-2 gap-3">
              {PHASES.map((phase) => (
                <li key={phase}>
                  <Link
                    href={overviewHref({ cluster: state.name, phase })}
                    data-testid="cluster-phase-count"
                    data-phase={phase}
                    data-count={phaseCounts[phase] ?? 0}
                    className={cn(
                      "flex flex-col gap-1 rounded-md border border-slate-200 p-3 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-800/50",
                      focusRing,
                    )}
                  >
                    <span className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
                      <span aria-hidden className={cn("size-2 rounded-full", DOT_TONES[PHASE_TONE[phase]])} />
                      {phase}
                    </span>
                    <span className="text-2xl font-semibold tabular-nums">{formatCount(phaseCounts[phase] ?? 0)}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </CardBody>
        </Card>
        <Card aria-labelledby="watches-title">
          <CardHeader id="watches-title" title="Watches" meta="what Rollscope keeps open on this cluster" />
          <WatchTable watches={state.watches} />
        </Card>
      </div>
      <ClusterPluginsCard cluster={state.name} />
      <ClusterAttention cluster={state.name} />
    </div>
  );
}
