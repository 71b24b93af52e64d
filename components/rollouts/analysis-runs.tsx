import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import type { AnalysisMetricView, AnalysisRunView } from "@/lib/rollouts/detail-types";
import { analysisTone } from "./analysis-phase";
import { LongText } from "@/components/ui/long-text";

const KIND_LABEL: Record<AnalysisRunView["kind"], string> = {
  step: "step",
  background: "background",
  prePromotion: "pre-promotion",
  postPromotion: "post-promotion",
  unknown: "analysis",
};

const MEASUREMENT_STYLE: Record<string, string> = {
  green: "bg-emerald-100 text-emerald-900 dark:bg-emerald-500/15 dark:text-emerald-200",
  red: "bg-rose-100 text-rose-900 dark:bg-rose-500/20 dark:text-rose-200",
  amber: "bg-amber-100 text-amber-900 dark:bg-amber-500/20 dark:text-amber-200",
  blue: "bg-sky-100 text-sky-900 dark:bg-sky-500/15 dark:text-sky-200",
  neutral: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300",
  violet: "bg-violet-100 text-violet-900",
};

const RECENT_MEASUREMENTS = 12;

function MetricRow({ metric }: { metric: AnalysisMetricView }) {
  const recent = metric.measurements.slice(-RECENT_MEASUREMENTS);
  return (
    <tr data-testid="analysis-metric" data-metric={metric.name} data-phase={metric.phase} className="align-top">
      <td className="py-1.5 pr-3 font-medium">{metric.name}</td>
      <td className="py-1.5 pr-3">
        <Badge tone={analysisTone(metric.phase)}>{metric.phase}</Badge>
      </td>
      <td className="py-1.5 pr-3 text-xs whitespace-nowrap tabular-nums">
        <span className="text-emerald-700 dark:text-emerald-400" title="successful">
          ✓{metric.successful}
        </span>{" "}
        <span className="text-rose-700 dark:text-rose-400" title="failed">
          ✗{metric.failed}
        </span>{" "}
        <span className="text-amber-700 dark:text-amber-400" title="inconclusive">
          ?{metric.inconclusive}
        </span>
      </td>
      <td className="py-1.5">
        {recent.length === 0 ? (
          <span className="text-xs text-slate-500 dark:text-slate-400">no measurements</span>
        ) : (
          <ol className="flex flex-wrap gap-1" aria-label={`Last ${recent.length} measurements`}>
            {recent.map((m, i) => (
              <li
                key={`${m.startedAt}-${i}`}
                title={`${m.phase}${m.finishedAt ? ` at ${formatAbsoluteTime(m.finishedAt)}` : ""}`}
                className={cn("max-w-40 truncate rounded px-1.5 py-0.5 font-mono text-[11px]", MEASUREMENT_STYLE[analysisTone(m.phase)])}
              >
                {m.value ?? "—"}
              </li>
            ))}
          </ol>
        )}
        {metric.message && <LongText text={metric.message} className="mt-1 block text-xs text-slate-600 dark:text-slate-400" />}
      </td>
    </tr>
  );
}

/** AnalysisRuns of the rollout, running ones first: status, and per metric its counts and recent measurements. */
export function AnalysisRuns({ runs, now }: { runs: AnalysisRunView[]; now: number }) {
  const sorted = [...runs].sort(
    (a, b) =>
      Number(b.phase === "Running") - Number(a.phase === "Running") || Date.parse(b.startedAt ?? "") - Date.parse(a.startedAt ?? "") || 0,
  );
  return (
    <ul className="divide-y divide-slate-100 dark:divide-slate-800">
      {sorted.map((run) => (
        <li key={run.name} data-testid="analysis-run" data-name={run.name} data-phase={run.phase} className="flex flex-col gap-2 px-4 py-3">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={analysisTone(run.phase)} dot>
              {run.phase}
            </Badge>
            <span className="min-w-0 truncate font-mono text-sm" title={run.name}>
              {run.name}
            </span>
            <Badge>{KIND_LABEL[run.kind] ?? run.kind}</Badge>
            {run.revision && <span className="text-xs text-slate-500 dark:text-slate-400">rev {run.revision}</span>}
            <RelativeTime at={run.startedAt} now={now} className="ml-auto text-xs text-slate-500 dark:text-slate-400" />
          </div>
          {run.message && <LongText text={run.message} className="block text-sm text-slate-700 dark:text-slate-300" />}
          {run.metrics.length > 0 && (
            <table className="w-full text-left text-sm">
              <thead className="sr-only">
                <tr>
                  <th>Metric</th>
                  <th>Phase</th>
                  <th>Counts</th>
                  <th>Measurements</th>
                </tr>
              </thead>
              <tbody>
                {run.metrics.map((m) => (
                  <MetricRow key={m.name} metric={m} />
                ))}
              </tbody>
            </table>
          )}
        </li>
      ))}
    </ul>
  );
}
