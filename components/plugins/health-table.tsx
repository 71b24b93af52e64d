import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { ScrollArea } from "@/components/ui/scroll-area";
import { pluginHref, rolloutHref } from "@/lib/format/hrefs";
import { rankPluginHealth, sortHealthWorstFirst } from "@/lib/plugins/health-rank";
import type { PluginHealthView } from "@/lib/plugins/view-types";
import { burnTone, describeBurn, formatRate, LEVEL_LABEL, LEVEL_TONE } from "./health-model";

const AFFECTED_SHOWN = 3;

/** The Rollouts affected now, linked to their detail pages; the plugin's page lists them all with the reasons. */
function AffectedRollouts({ affected }: { affected: PluginHealthView["affected"] }) {
  if (affected.length === 0) return <>—</>;
  return (
    <span className="flex flex-wrap gap-x-2 wrap-anywhere">
      {affected.slice(0, AFFECTED_SHOWN).map((a) => (
        <Link
          key={`${a.cluster}/${a.namespace}/${a.name}`}
          href={rolloutHref(a.cluster, a.namespace, a.name)}
          title={a.reasons.join("; ")}
          className={cn("font-mono hover:underline", focusRing)}
        >
          {a.namespace}/{a.name}
        </Link>
      ))}
      {affected.length > AFFECTED_SHOWN && <span>+{affected.length - AFFECTED_SHOWN}</span>}
    </span>
  );
}

/** One line per traffic-router plugin and cluster, worst first; the plugin's page has the charts and panels. */
export function HealthTable({ views, range }: { views: readonly PluginHealthView[]; range: string }) {
  const sorted = sortHealthWorstFirst(views);
  return (
    <ScrollArea label="Traffic-router health, worst first">
      <table className="w-full text-sm" data-testid="plugin-health-table">
        <thead>
          <tr className="border-b border-slate-200 text-left text-xs text-slate-500 dark:border-slate-800 dark:text-slate-400">
            <th className="py-1.5 pr-3 font-medium">Health</th>
            <th className="py-1.5 pr-3 font-medium">Plugin</th>
            <th className="py-1.5 pr-3 font-medium">Cluster</th>
            <th className="py-1.5 pr-3 font-medium">Success ({range})</th>
            <th className="py-1.5 pr-3 font-medium">SLO burn</th>
            <th className="py-1.5 pr-3 font-medium">Rollouts</th>
            <th className="py-1.5 pr-3 font-medium">Affected now</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((view) => {
            const rank = rankPluginHealth(view);
            const cluster = view.cluster ?? "fleet";
            return (
              <tr
                key={`${cluster}/${view.plugin}`}
                data-testid="plugin-health-row"
                data-plugin={view.plugin}
                data-cluster={cluster}
                data-level={rank.level}
                className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60"
              >
                <td className="py-1.5 pr-3">
                  <Badge tone={LEVEL_TONE[rank.level]} dot>
                    {LEVEL_LABEL[rank.level]}
                  </Badge>
                </td>
                <td className="min-w-[18ch] py-1.5 pr-3 font-mono text-xs wrap-anywhere">
                  <Link href={pluginHref(view.plugin)} className={cn("hover:underline", focusRing)}>
                    {view.plugin}
                  </Link>
                </td>
                <td className="py-1.5 pr-3 text-xs wrap-anywhere">{view.cluster ?? "fleet-wide"}</td>
                <td className="py-1.5 pr-3 tabular-nums" data-testid="success-rate" data-source={rank.source}>
                  {formatRate(rank.successRate)}{" "}
                  <span
                    className="text-[11px] text-slate-500 dark:text-slate-400"
                    title={
                      rank.source === "measured"
                        ? "Counted call by call by rollscope-plugin-meter at the plugin's RPC boundary"
                        : "Derived from the controller's metrics and events of the Rollouts that use the plugin"
                    }
                  >
                    {rank.source === "measured" ? "measured" : "derived"}
                  </span>
                </td>
                <td className="py-1.5 pr-3">
                  <span className="flex flex-wrap gap-1">
                    {view.slo.error ? (
                      <Badge tone="amber">unavailable</Badge>
                    ) : (
                      (view.slo.data?.burn ?? []).map((b) => (
                        <Badge key={b.window} tone={burnTone(b)}>
                          {describeBurn(b)}
                        </Badge>
                      ))
                    )}
                  </span>
                </td>
                <td className="py-1.5 pr-3 tabular-nums">{view.rolloutCount}</td>
                <td className="min-w-[18ch] py-1.5 pr-3 text-xs">
                  <AffectedRollouts affected={view.affected} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}
