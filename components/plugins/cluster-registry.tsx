import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { ErrorState } from "@/components/ui/error-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import { pluginHref } from "@/lib/format/hrefs";
import type { PluginClusterView } from "@/lib/plugins/view-types";
import { ErrorHint } from "./error-hint";
import { PluginUsers } from "./plugin-users";

const KIND_LABEL = { trafficRouter: "traffic router", metricProvider: "metric provider", step: "step" } as const;

/** One cluster's argo-rollouts-config as the controller reads it, with who uses each plugin. */
export function ClusterRegistry({ cluster }: { cluster: PluginClusterView }) {
  return (
    <Card data-testid={`plugin-registry-${cluster.cluster}`}>
      <CardHeader
        title={cluster.cluster}
        meta={
          <>
            {`${cluster.label ? `${cluster.label} · ` : ""}${cluster.controllerNamespace}/argo-rollouts-config${cluster.configMap.resourceVersion ? ` · rv ${cluster.configMap.resourceVersion}` : ""}`}
            {cluster.configMap.updatedAt && <RelativeTime at={cluster.configMap.updatedAt} prefix=" · changed " />}
          </>
        }
        actions={
          <span className="text-xs text-slate-500 dark:text-slate-400" title={cluster.metrics.signal}>
            metrics: {cluster.metrics.kind === "prometheus" ? "Prometheus" : "direct scrape"}
            {!cluster.metrics.ok && <span className="text-amber-700 dark:text-amber-400"> (failing: {cluster.metrics.error})</span>}
          </span>
        }
      />
      <CardBody className="flex flex-col gap-3">
        {cluster.crashLoopsOnConfig && (
          <ErrorState title="Upstream's controller crash-loops on this ConfigMap">
            <p className="text-xs">
              Argo Rollouts reads argo-rollouts-config at start-up and exits (log.Fatalf) on the first invalid entry, so a controller
              started with it crash-loops and reconciles nothing. Every problem is listed below, not only the first one upstream reports.
            </p>
          </ErrorState>
        )}
        {cluster.controller.crashLooping && (
          <ErrorState
            title={`Controller pod ${cluster.controller.podName ?? ""} is in CrashLoopBackOff`}
            message={cluster.controller.reason}
          >
            <ErrorHint hint={cluster.controller.hint} />
          </ErrorState>
        )}
        {cluster.errors.map((error) => (
          <p key={error} className="text-xs text-amber-800 dark:text-amber-300">
            {error}
          </p>
        ))}
        {!cluster.configMap.present && (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            No argo-rollouts-config ConfigMap: the controller runs with no plugins.
          </p>
        )}
        {cluster.entryErrors.length > 0 && (
          <ul className="flex flex-col gap-1" aria-label="Invalid entries">
            {cluster.entryErrors.map((error, i) => (
              <li
                key={`${error.key}-${error.index}-${error.field}-${i}`}
                data-testid="entry-error"
                className="rounded border border-rose-200 bg-rose-50 px-2 py-1 text-xs dark:border-rose-900 dark:bg-rose-950/40"
              >
                <span className="font-mono">{error.reason}</span>
                <ErrorHint hint={error.hint} />
              </li>
            ))}
          </ul>
        )}
        <ScrollArea label={`Plugins registered in ${cluster.cluster}`}>
          <table className="w-full text-xs">
            <thead>
              <tr className="border-b border-slate-200 text-left text-slate-500 dark:text-slate-400 dark:border-slate-800">
                <th className="py-1.5 pr-3 font-medium">Plugin</th>
                <th className="py-1.5 pr-3 font-medium">Kind</th>
                <th className="py-1.5 pr-3 font-medium">Used by</th>
                <th className="py-1.5 pr-3 font-medium">Version (from location)</th>
                <th className="py-1.5 pr-3 font-medium">Location</th>
                <th className="py-1.5 pr-3 font-medium">sha256</th>
                <th className="py-1.5 pr-3 font-medium">Args</th>
              </tr>
            </thead>
            <tbody>
              {cluster.plugins.map((plugin) => (
                <tr
                  key={`${plugin.kind}/${plugin.name}/${plugin.index}`}
                  className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60"
                >
                  <td className="min-w-[20ch] py-1.5 pr-3 font-mono wrap-anywhere">
                    <Link href={pluginHref(plugin.name)} className={cn("hover:underline", focusRing)}>
                      {plugin.name}
                    </Link>
                    {plugin.disabled && <Badge className="ml-1">disabled</Badge>}
                  </td>
                  <td className="py-1.5 pr-3">{KIND_LABEL[plugin.kind]}</td>
                  <td className="min-w-[24ch] py-1.5 pr-3">
                    <PluginUsers cluster={cluster.cluster} users={plugin.usedBy} />
                  </td>
                  <td className="py-1.5 pr-3">{plugin.version ?? "unknown"}</td>
                  <td className="max-w-[28ch] truncate py-1.5 pr-3 font-mono" title={plugin.location}>
                    {plugin.location}
                  </td>
                  <td className="py-1.5 pr-3">
                    {plugin.sha256 ? (
                      <Badge tone="green">present</Badge>
                    ) : plugin.locationScheme === "file" ? (
                      <Badge>n/a (file)</Badge>
                    ) : (
                      <Badge tone="amber">missing</Badge>
                    )}
                  </td>
                  <td className="min-w-[16ch] py-1.5 pr-3 font-mono wrap-anywhere">
                    {plugin.args.length > 0 ? plugin.args.join(" ") : "—"}
                  </td>
                </tr>
              ))}
              {cluster.unregistered.map((missing) => (
                <tr
                  key={`missing/${missing.kind}/${missing.name}`}
                  className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60"
                >
                  <td className="min-w-[20ch] py-1.5 pr-3 font-mono wrap-anywhere">
                    <Link href={pluginHref(missing.name)} className={cn("hover:underline", focusRing)}>
                      {missing.name}
                    </Link>
                  </td>
                  <td className="py-1.5 pr-3">{KIND_LABEL[missing.kind]}</td>
                  <td className="min-w-[24ch] py-1.5 pr-3">
                    <PluginUsers cluster={cluster.cluster} users={missing.usedBy} />
                  </td>
                  <td className="py-1.5 pr-3" colSpan={4}>
                    <Badge tone="red">referenced but not registered</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollArea>
      </CardBody>
    </Card>
  );
}
