"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import { SkeletonRows } from "@/components/ui/skeleton";
import { pluginHref } from "@/lib/format/hrefs";
import type { ControllerStatusView } from "@/lib/plugins/controller-status";
import type { PluginClusterView } from "@/lib/plugins/view-types";
import { useClusterPlugins } from "@/lib/queries/use-plugins";

const KIND_LABEL = { trafficRouter: "traffic router", metricProvider: "metric provider", step: "step" } as const;

function ControllerSummary({ controller }: { controller: ControllerStatusView }) {
  const { deployment } = controller;
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="controller-status">
      <dl className="flex flex-wrap gap-x-6 gap-y-1">
        <div className="flex gap-2">
          <dt className="text-slate-500 dark:text-slate-400">Version</dt>
          <dd className="font-mono text-xs leading-5" data-testid="controller-version">
            {controller.version ?? "unknown"}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-slate-500 dark:text-slate-400">Deployment</dt>
          <dd className="text-xs leading-5 tabular-nums">
            {deployment
              ? `${deployment.name}: ${deployment.ready}/${deployment.desired} ready, ${deployment.available} available, ${deployment.updated} updated`
              : (controller.deploymentNote ?? "none")}
          </dd>
        </div>
      </dl>
      {controller.pods.length === 0 ? (
        <p className="text-xs text-amber-800 dark:text-amber-300">
          No controller Pod in {controller.namespace}: the controller is not running here, or runs outside the cluster.
        </p>
      ) : (
        <ScrollArea label="Controller Pods">
          <table className="w-full text-xs">
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-500 dark:border-slate-800 dark:text-slate-400">
                <th className="py-1 pr-3 font-medium">Pod</th>
                <th className="py-1 pr-3 font-medium">State</th>
                <th className="py-1 pr-3 font-medium">Ready</th>
                <th className="py-1 pr-3 font-medium">Restarts</th>
                <th className="py-1 pr-3 font-medium">Started</th>
                <th className="py-1 pr-3 font-medium">Node</th>
              </tr>
            </thead>
            <tbody>
              {controller.pods.map((pod) => (
                <tr
                  key={pod.name}
                  data-testid="controller-pod"
                  data-state={pod.state}
                  className="border-b border-slate-100 last:border-0 dark:border-slate-800/60"
                >
                  <td className="py-1 pr-3 font-mono wrap-anywhere">{pod.name}</td>
                  <td className="py-1 pr-3">
                    <Badge tone={pod.state === "Running" ? "green" : "red"} dot>
                      {pod.state}
                    </Badge>
                  </td>
                  <td className="py-1 pr-3">{pod.ready ? "yes" : "no"}</td>
                  <td className="py-1 pr-3 tabular-nums">{pod.restarts}</td>
                  <td className="py-1 pr-3">
                    <RelativeTime at={pod.startedAt} />
                  </td>
                  <td className="py-1 pr-3 font-mono wrap-anywhere">{pod.node ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      )}
    </div>
  );
}

function RegisteredPlugins({ registry }: { registry: PluginClusterView }) {
  if (!registry.configMap.present) return <EmptyState title="No argo-rollouts-config ConfigMap: the controller runs with no plugins" />;
  if (registry.plugins.length === 0 && registry.unregistered.length === 0)
    return <EmptyState title="No plugin is registered or referenced" />;
  return (
    <ul className="flex flex-col gap-1 text-sm" data-testid="cluster-plugins" aria-label={`Plugins of ${registry.cluster}`}>
      {registry.plugins.map((p) => (
        <li
          key={`${p.kind}/${p.name}/${p.index}`}
          data-testid="cluster-plugin"
          data-plugin={p.name}
          className="flex flex-wrap items-center gap-2"
        >
          <Link href={pluginHref(p.name)} className={cn("font-mono text-xs hover:underline wrap-anywhere", focusRing)}>
            {p.name}
          </Link>
          <span className="text-xs text-slate-500 dark:text-slate-400">{KIND_LABEL[p.kind]}</span>
          <Badge>{p.version ?? "version unknown"}</Badge>
          <span className="text-xs text-slate-500 dark:text-slate-400">
            {p.usedBy.length} user{p.usedBy.length === 1 ? "" : "s"}
          </span>
        </li>
      ))}
      {registry.unregistered.map((u) => (
        <li
          key={`missing/${u.kind}/${u.name}`}
          data-testid="cluster-plugin"
          data-plugin={u.name}
          className="flex flex-wrap items-center gap-2"
        >
          <Link href={pluginHref(u.name)} className={cn("font-mono text-xs hover:underline wrap-anywhere", focusRing)}>
            {u.name}
          </Link>
          <span className="text-xs text-slate-500 dark:text-slate-400">{KIND_LABEL[u.kind]}</span>
          <Badge tone="red">referenced but not registered</Badge>
        </li>
      ))}
    </ul>
  );
}

/** The cluster page's plugins card: what argo-rollouts-config registers here, and the controller that reads it. */
export function ClusterPluginsCard({ cluster }: { cluster: string }) {
  const query = useClusterPlugins(cluster);
  return (
    <Card aria-labelledby="cluster-plugins-title">
      <CardHeader
        id="cluster-plugins-title"
        title="Plugins and controller"
        meta={
          query.data?.registry.configMap.updatedAt && (
            <RelativeTime at={query.data.registry.configMap.updatedAt} prefix="argo-rollouts-config changed " />
          )
        }
        actions={
          <Link href={`/plugins?cluster=${encodeURIComponent(cluster)}`} className={cn("text-xs hover:underline", focusRing)}>
            Plugins page →
          </Link>
        }
      />
      <CardBody className="flex flex-col gap-4">
        {query.isPending ? (
          <SkeletonRows rows={3} label="Loading plugins…" />
        ) : !query.data ? (
          <ErrorState
            title="Could not load this cluster's plugins"
            message={query.error instanceof Error ? query.error.message : null}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <>
            <ControllerSummary controller={query.data.controller} />
            <RegisteredPlugins registry={query.data.registry} />
          </>
        )}
      </CardBody>
    </Card>
  );
}
