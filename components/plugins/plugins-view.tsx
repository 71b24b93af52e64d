"use client";

import { useMemo } from "react";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { filterPluginsOverview, type PluginsFilter } from "@/lib/plugins/plugins-filter";
import { summarizePlugins } from "@/lib/plugins/plugins-summary";
import type { PluginsOverview } from "@/lib/plugins/view-types";
import { usePluginHealth, usePluginsOverview } from "@/lib/queries/use-plugins";
import { ClusterRegistry } from "./cluster-registry";
import { FindingsList } from "./findings-list";
import { FleetMatrix } from "./fleet-matrix";
import { HealthTable } from "./health-table";
import { PluginsFilterBar } from "./plugins-filter-bar";
import { PluginsSummaryStrip } from "./plugins-summary-strip";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function ConfigProblems({ problems }: { problems: PluginsOverview["configProblems"] }) {
  if (problems.length === 0) return null;
  return (
    <ErrorState title="Rollscope configuration problems">
      <ul className="text-xs">
        {problems.map((p) => (
          <li key={`${p.cluster}-${p.template}`}>
            {p.cluster ? `${p.cluster}: ` : ""}
            {p.message}
          </li>
        ))}
      </ul>
    </ErrorState>
  );
}

function HealthCard({ filter }: { filter: PluginsFilter }) {
  const traffic = filter.kind === null || filter.kind === "trafficRouter";
  const health = usePluginHealth(filter.range, filter.cluster, filter.plugin);
  return (
    <Card aria-labelledby="plugin-health-title">
      <CardHeader
        id="plugin-health-title"
        title="Traffic-router health, worst first"
        meta={
          <>
            derived from rollout_events_total, rollout_reconcile_error and rollout_reconcile
            {health.data && <RelativeTime at={health.data.computedAt} prefix=" · computed " />}
            {health.data?.refreshError && (
              <span title={health.data.refreshError}> · the last refresh failed: showing the last good report</span>
            )}
          </>
        }
      />
      <CardBody data-testid="plugin-health">
        {!traffic ? (
          <EmptyState title="Health is derived for traffic-router plugins only" />
        ) : health.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : health.isError && !health.data ? (
          <ErrorState title="Could not load plugin health" message={messageOf(health.error)} onRetry={() => void health.refetch()} />
        ) : health.data.plugins.length === 0 ? (
          <EmptyState title="No Rollout uses a traffic-router plugin here" />
        ) : (
          <HealthTable views={health.data.plugins} range={filter.range} />
        )}
      </CardBody>
    </Card>
  );
}

/**
 * The plugins page, answering in order: how bad is it (summary, health worst first), what is wrong (findings), who
 * uses what (registry per cluster) and where each plugin is registered (matrix). Cluster, plugin, kind and range
 * filter every part and live in the URL. Registry and health load independently, so a slow or failing metrics
 * source leaves the registry usable.
 */
export function PluginsView({
  filter,
  onFilterChange,
}: {
  filter: PluginsFilter;
  onFilterChange: (patch: Partial<PluginsFilter>) => void;
}) {
  const overview = usePluginsOverview();
  const traffic = filter.kind === null || filter.kind === "trafficRouter";
  const health = usePluginHealth(filter.range, filter.cluster, filter.plugin);
  const filtered = useMemo(() => (overview.data ? filterPluginsOverview(overview.data, filter) : null), [overview.data, filter]);
  const summary = useMemo(
    () => (filtered ? summarizePlugins(filtered, traffic ? (health.data?.plugins ?? null) : null) : null),
    [filtered, health.data, traffic],
  );

  return (
    <div className="flex flex-col gap-4" data-testid="plugins-page">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-lg font-semibold tracking-tight">Plugins</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Registered in each cluster&apos;s argo-rollouts-config, used by Rollouts and AnalysisTemplates. Health is derived from controller
          signals: upstream Argo Rollouts has no per-plugin RPC metric.
        </p>
      </div>
      <PluginsFilterBar
        filter={filter}
        clusters={overview.data?.matrix.clusters ?? []}
        plugins={[...new Set(overview.data?.matrix.rows.map((r) => r.name) ?? [])].sort()}
        onChange={onFilterChange}
      />

      {overview.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : overview.isError || !filtered || !summary ? (
        <ErrorState
          title="Could not load the plugin registry"
          message={messageOf(overview.error)}
          onRetry={() => void overview.refetch()}
        />
      ) : (
        <>
          <PluginsSummaryStrip summary={summary} healthLoading={traffic && health.isPending} />
          <ConfigProblems problems={filtered.configProblems} />
        </>
      )}

      <HealthCard filter={filter} />

      {filtered && (
        <>
          <Card>
            <CardHeader title="Findings" meta={`${filtered.findings.length}`} />
            <CardBody>
              <FindingsList findings={filtered.findings} />
            </CardBody>
          </Card>
          <section aria-labelledby="registry-title" className="flex flex-col gap-2">
            <h2 id="registry-title" className="text-sm font-semibold tracking-tight">
              Who uses what, per cluster
            </h2>
            {filtered.clusters.map((cluster) => (
              <ClusterRegistry key={cluster.cluster} cluster={cluster} />
            ))}
          </section>
          <Card>
            <CardHeader
              title="Fleet matrix"
              meta={`${filtered.matrix.rows.length} plugins × ${filtered.matrix.clusters.length} clusters`}
            />
            <CardBody>
              {filtered.matrix.rows.length === 0 ? (
                <EmptyState title="No plugin matches in any cluster" />
              ) : (
                <FleetMatrix matrix={filtered.matrix} />
              )}
            </CardBody>
          </Card>
        </>
      )}
    </div>
  );
}
