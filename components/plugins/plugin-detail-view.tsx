"use client";

import Link from "next/link";
import { useMemo } from "react";
import { RangeSelector } from "@/components/charts/range-selector";
import { Badge } from "@/components/ui/badge";
import { buttonClasses, focusRing } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import { Skeleton } from "@/components/ui/skeleton";
import { clusterHref } from "@/lib/format/hrefs";
import { sortHealthWorstFirst } from "@/lib/plugins/health-rank";
import { describePluginPage, type PluginPage } from "@/lib/plugins/plugin-page";
import { HEALTH_RANGES, type HealthRange } from "@/lib/plugins/view-types";
import { usePluginHealth, usePluginsOverview } from "@/lib/queries/use-plugins";
import { FindingsList } from "./findings-list";
import { cellLabel, cellTone } from "./health-model";
import { PluginHealthCard } from "./plugin-health-card";
import { PluginUsers } from "./plugin-users";

const KIND_LABEL = { trafficRouter: "traffic router", metricProvider: "metric provider", step: "step" } as const;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function RegistryEntries({ page }: { page: PluginPage }) {
  return (
    <ScrollArea label={`Registry entries of ${page.name}`}>
      <table className="w-full text-xs" data-testid="plugin-entries">
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500 dark:border-slate-800 dark:text-slate-400">
            <th className="py-1.5 pr-3 font-medium">Cluster</th>
            <th className="py-1.5 pr-3 font-medium">State</th>
            <th className="py-1.5 pr-3 font-medium">Kind</th>
            <th className="py-1.5 pr-3 font-medium">Location</th>
            <th className="py-1.5 pr-3 font-medium">sha256</th>
            <th className="py-1.5 pr-3 font-medium">Args</th>
          </tr>
        </thead>
        <tbody>
          {page.entries.map((e) => (
            <tr
              key={`${e.cluster}/${e.kind}`}
              data-testid="plugin-entry"
              data-cluster={e.cluster}
              data-state={e.state}
              className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60"
            >
              <td className="py-1.5 pr-3 wrap-anywhere">
                <Link href={clusterHref(e.cluster)} className={cn("hover:underline", focusRing)}>
                  {e.cluster}
                </Link>
              </td>
              <td className="py-1.5 pr-3">
                <Badge tone={cellTone({ state: e.state, critical: 0, warning: 0 })}>{cellLabel(e)}</Badge>
                {e.disabled && <Badge className="ml-1">disabled</Badge>}
              </td>
              <td className="py-1.5 pr-3">{KIND_LABEL[e.kind]}</td>
              <td className="min-w-[24ch] py-1.5 pr-3 font-mono wrap-anywhere">{e.location ?? "—"}</td>
              <td className="py-1.5 pr-3">
                {e.state !== "registered" ? "—" : e.sha256 ? <Badge tone="green">present</Badge> : <Badge tone="amber">missing</Badge>}
              </td>
              <td className="py-1.5 pr-3 font-mono wrap-anywhere">{e.args.length > 0 ? e.args.join(" ") : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}

function UsersByCluster({ page }: { page: PluginPage }) {
  if (page.users.length === 0) return <EmptyState title="No Rollout or AnalysisTemplate uses this plugin" />;
  const clusters = [...new Set(page.users.map((u) => u.cluster))];
  return (
    <div className="flex flex-col gap-3 text-xs" data-testid="plugin-rollouts">
      {clusters.map((cluster) => (
        <section key={cluster} aria-label={`Users in ${cluster}`}>
          <h3 className="mb-1 text-xs font-semibold">{cluster}</h3>
          <PluginUsers cluster={cluster} users={page.users.filter((u) => u.cluster === cluster)} />
        </section>
      ))}
    </div>
  );
}

function DriftNote({ page }: { page: PluginPage }) {
  if (!page.drift.drifting) return null;
  return (
    <div
      data-testid="plugin-drift"
      className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-xs text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200"
    >
      <p className="font-medium">Drift across clusters: the clusters run different builds of this plugin.</p>
      {page.drift.versions.length > 1 && <p>Versions: {page.drift.versions.join(", ")}</p>}
      {page.drift.locations.length > 1 && <p className="wrap-anywhere">Locations: {page.drift.locations.join(" · ")}</p>}
    </div>
  );
}

function PluginHealthSection({
  name,
  range,
  onRangeChange,
}: {
  name: string;
  range: HealthRange;
  onRangeChange: (range: HealthRange) => void;
}) {
  const health = usePluginHealth(range, null, name);
  const error = health.error ? messageOf(health.error) : null;
  const views = useMemo(() => sortHealthWorstFirst(health.data?.plugins ?? []), [health.data]);
  return (
    <Card aria-labelledby="plugin-health-title">
      <CardHeader
        id="plugin-health-title"
        title="Health across clusters, worst first"
        meta={health.data && <RelativeTime at={health.data.computedAt} prefix="computed " />}
        actions={<RangeSelector ranges={HEALTH_RANGES} value={range} onChange={onRangeChange} />}
      />
      <CardBody className="flex flex-col gap-4" data-testid="plugin-health">
        {health.isPending ? (
          <Skeleton className="h-48 w-full" />
        ) : health.isError && !health.data ? (
          <ErrorState title="Could not load plugin health" message={error} onRetry={() => void health.refetch()} />
        ) : views.length === 0 ? (
          <EmptyState title="No Rollout uses this traffic-router plugin" />
        ) : (
          views.map((view) => <PluginHealthCard key={view.cluster ?? "fleet"} view={view} loading={false} error={error} />)
        )}
      </CardBody>
    </Card>
  );
}

/** One plugin across the fleet: where it is registered and how (drift), its health, findings and users. */
export function PluginDetailView({
  name,
  range,
  onRangeChange,
}: {
  name: string;
  range: HealthRange;
  onRangeChange: (range: HealthRange) => void;
}) {
  const overview = usePluginsOverview();
  const page = useMemo(() => (overview.data ? describePluginPage(overview.data, name) : null), [overview.data, name]);

  const breadcrumb = (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-500 wrap-anywhere dark:text-slate-400">
      <Link href="/plugins" className={cn("hover:underline", focusRing)}>
        Plugins
      </Link>{" "}
      / <span className="text-slate-700 dark:text-slate-300">{name}</span>
    </nav>
  );
  if (overview.isPending) return <Skeleton className="h-40 w-full" />;
  if (overview.isError)
    return (
      <ErrorState title="Could not load the plugin registry" message={messageOf(overview.error)} onRetry={() => void overview.refetch()} />
    );
  if (!page) {
    return (
      <div className="flex flex-col gap-3">
        {breadcrumb}
        <ErrorState title="Plugin not found" message={`No cluster registers or references ${name}.`} />
        <Link href="/plugins" className={buttonClasses("secondary", "self-start")}>
          All plugins
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4" data-testid="plugin-page" data-plugin={name}>
      <header className="flex flex-col gap-2">
        {breadcrumb}
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="min-w-0 font-mono text-xl font-semibold tracking-tight wrap-anywhere">{name}</h1>
          {page.kinds.map((kind) => (
            <Badge key={kind}>{KIND_LABEL[kind]}</Badge>
          ))}
          {page.drift.drifting && <Badge tone="amber">drift</Badge>}
        </div>
      </header>
      <Card aria-labelledby="entries-title">
        <CardHeader
          id="entries-title"
          title="Registry entries"
          meta={`${page.entries.length} cluster${page.entries.length === 1 ? "" : "s"} · argo-rollouts-config`}
        />
        <CardBody className="flex flex-col gap-3">
          <DriftNote page={page} />
          <RegistryEntries page={page} />
        </CardBody>
      </Card>
      <Card aria-labelledby="users-title">
        <CardHeader id="users-title" title="Used by" meta={`${page.users.length}`} />
        <CardBody>
          <UsersByCluster page={page} />
        </CardBody>
      </Card>
      <Card aria-labelledby="findings-title">
        <CardHeader id="findings-title" title="Findings" meta={`${page.findings.length}`} />
        <CardBody>
          <FindingsList findings={page.findings} />
        </CardBody>
      </Card>
      {page.kinds.includes("trafficRouter") && <PluginHealthSection name={name} range={range} onRangeChange={onRangeChange} />}
    </div>
  );
}
