import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { pluginHref } from "@/lib/format/hrefs";
import type { PluginsSummary } from "@/lib/plugins/plugins-summary";
import { formatRate, LEVEL_LABEL, LEVEL_TONE } from "./health-model";

function Item({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 rounded-md border border-slate-200 px-3 py-2 dark:border-slate-800" data-testid={testId}>
      <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
      <dd className="text-sm font-semibold tabular-nums wrap-anywhere">{children}</dd>
    </div>
  );
}

/** Plugins, clusters, findings by severity and the worst health, for what the filters show. */
export function PluginsSummaryStrip({ summary, healthLoading }: { summary: PluginsSummary; healthLoading: boolean }) {
  const { findings, worst } = summary;
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Summary" data-testid="plugins-summary">
      <Item label="Plugins" testId="summary-plugins">
        {summary.plugins}
      </Item>
      <Item label="Clusters" testId="summary-clusters">
        {summary.clusters}
      </Item>
      <Item label="Findings" testId="summary-findings">
        <span
          className="flex flex-wrap gap-1.5"
          data-critical={findings.critical}
          data-warning={findings.warning}
          data-info={findings.info}
        >
          <Badge tone={findings.critical > 0 ? "red" : "neutral"}>{findings.critical} critical</Badge>
          <Badge tone={findings.warning > 0 ? "amber" : "neutral"}>{findings.warning} warning</Badge>
          <Badge tone="neutral">{findings.info} info</Badge>
        </span>
      </Item>
      <Item label="Worst health" testId="summary-worst">
        {worst ? (
          <Link
            href={pluginHref(worst.plugin)}
            className={cn("flex flex-wrap items-center gap-1.5 hover:underline", focusRing)}
            data-plugin={worst.plugin}
            data-cluster={worst.cluster ?? "fleet"}
          >
            <Badge tone={LEVEL_TONE[worst.level]} dot>
              {LEVEL_LABEL[worst.level]}
            </Badge>
            <span className="font-mono text-xs">{worst.plugin}</span>
            <span className="text-xs font-normal text-slate-600 dark:text-slate-400">
              {worst.cluster ?? "fleet-wide"} · {formatRate(worst.successRate)}
            </span>
          </Link>
        ) : (
          <span className="font-normal text-slate-500 dark:text-slate-400">{healthLoading ? "loading…" : "no traffic-router health"}</span>
        )}
      </Item>
    </dl>
  );
}
