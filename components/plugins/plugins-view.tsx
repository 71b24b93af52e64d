"use client";

import { useState } from "react";
import { RangeSelector } from "@/components/charts/range-selector";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Skeleton } from "@/components/ui/skeleton";
import { HEALTH_RANGES, type HealthRange } from "@/lib/plugins/view-types";
import { usePluginHealth, usePluginsOverview } from "@/lib/queries/use-plugins";
import { ClusterRegistry } from "./cluster-registry";
import { FindingsList } from "./findings-list";
import { FleetMatrix } from "./fleet-matrix";
import { PluginHealthCard } from "./plugin-health-card";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The plugins page: which traffic-router, metric-provider and step plugins each cluster registered, who uses them,
 * what is misconfigured, and how each traffic-router plugin is doing. Registry and health load independently, so
 * a slow or failing metrics source leaves the registry usable.
 */
export function PluginsView() {
  const overview = usePluginsOverview();
  const [range, setRange] = useState<HealthRange>("1h");
  const health = usePluginHealth(range);
  const healthError = health.error ? messageOf(health.error) : null;

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-lg font-semibold tracking-tight">Plugins</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Registered in each cluster&apos;s argo-rollouts-config, used by Rollouts and AnalysisTemplates. Health is derived from controller
          signals: upstream Argo Rollouts has no per-plugin RPC metric.
        </p>
      </div>

      {overview.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : overview.isError ? (
        <ErrorState title="Could not load the plugin registry" message={messageOf(overview.error)} onRetry={() => void overview.refetch()} />
      ) : (
        <>
          {overview.data.configProblems.length > 0 && (
            <ErrorState title="Rollscope configuration problems">
              <ul className="text-xs">
                {overview.data.configProblems.map((p) => (
                  <li key={`${p.cluster}-${p.template}`}>
                    {p.cluster ? `${p.cluster}: ` : ""}
                    {p.message}
                  </li>
                ))}
              </ul>
            </ErrorState>
          )}
          <Card>
            <CardHeader title="Fleet matrix" meta={`${overview.data.matrix.rows.length} plugins × ${overview.data.matrix.clusters.length} clusters`} />
            <CardBody>
              {overview.data.matrix.rows.length === 0 ? <EmptyState title="No plugin is registered or referenced in any cluster" /> : <FleetMatrix matrix={overview.data.matrix} />}
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Findings" meta={`${overview.data.findings.length}`} />
            <CardBody>
              <FindingsList findings={overview.data.findings} />
            </CardBody>
          </Card>
        </>
      )}

      <Card>
        <CardHeader
          title="Health of traffic-router plugins"
          meta={
            <>
              derived from rollout_events_total, rollout_reconcile_error and rollout_reconcile
              {health.data && <RelativeTime at={health.data.computedAt} prefix=" · computed " />}
            </>
          }
          actions={<RangeSelector ranges={HEALTH_RANGES} value={range} onChange={setRange} />}
        />
        <CardBody className="flex flex-col gap-4" data-testid="plugin-health">
          {health.isPending ? (
            <Skeleton className="h-48 w-full" />
          ) : health.isError && !health.data ? (
            <ErrorState title="Could not load plugin health" message={healthError} onRetry={() => void health.refetch()} />
          ) : health.data.plugins.length === 0 ? (
            <EmptyState title="No Rollout uses a traffic-router plugin" />
          ) : (
            health.data.plugins.map((view) => <PluginHealthCard key={`${view.cluster ?? "fleet"}/${view.plugin}`} view={view} loading={health.isFetching && !health.data} error={healthError} />)
          )}
        </CardBody>
      </Card>

      {overview.data && (
        <div className="grid gap-4 xl:grid-cols-2">
          {overview.data.clusters.map((cluster) => (
            <ClusterRegistry key={cluster.cluster} cluster={cluster} />
          ))}
        </div>
      )}
    </div>
  );
}
