import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import { formatDuration } from "@/lib/format/duration";
import { formatPercent } from "@/lib/format/percent";
import type { StepSegment } from "./weight-chart-data";

const MAX_ROWS = 50;

function verifiedText(verified: boolean | null): string {
  if (verified === null) return "n/a";
  return verified ? "yes" : "NO";
}

/**
 * The chart's numbers as a table, one row per step of each revision (latest last): the accessible fallback and the
 * place to read exact values. A long range keeps the latest 50 rows.
 */
export function WeightStepTable({ segments }: { segments: readonly StepSegment[] }) {
  const shown = segments.slice(-MAX_ROWS);
  return (
    <ScrollArea label="Weights step by step">
      <table className="w-full text-xs tabular-nums" data-testid="weight-steps">
        <caption className="pb-1 text-left text-xs font-medium text-slate-600 dark:text-slate-400">
          Weights step by step{segments.length > MAX_ROWS ? ` (latest ${MAX_ROWS} of ${segments.length})` : ""}
        </caption>
        <thead>
          <tr className="border-b border-slate-200 text-left text-slate-500 dark:border-slate-800 dark:text-slate-400">
            <th className="py-1 pr-3 font-medium">Revision</th>
            <th className="py-1 pr-3 font-medium">Step</th>
            <th className="py-1 pr-3 font-medium">From</th>
            <th className="py-1 pr-3 font-medium">For</th>
            <th className="py-1 pr-3 text-right font-medium">Requested</th>
            <th className="py-1 pr-3 text-right font-medium">Applied</th>
            <th className="py-1 pr-3 font-medium">Verified</th>
            <th className="py-1 pr-3 text-right font-medium">Measured</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((s) => (
            <tr
              key={s.from}
              data-testid="weight-step-row"
              data-step={s.stepIndex ?? ""}
              data-revision={s.revision ?? ""}
              className="border-b border-slate-100 last:border-0 dark:border-slate-800/60"
            >
              <td className="py-1 pr-3">{s.revision ?? "—"}</td>
              <td className="py-1 pr-3">{s.stepIndex === null ? "—" : s.stepIndex + 1}</td>
              <td className="py-1 pr-3">
                <RelativeTime at={new Date(s.from).toISOString()} />
              </td>
              <td className="py-1 pr-3">{formatDuration(Math.round((s.to - s.from) / 1000))}</td>
              <td className="py-1 pr-3 text-right" data-testid="weight-step-requested">
                {formatPercent(s.requested)}
              </td>
              <td className="py-1 pr-3 text-right" data-testid="weight-step-applied">
                {formatPercent(s.applied)}
              </td>
              <td className="py-1 pr-3">{verifiedText(s.verified)}</td>
              <td className="py-1 pr-3 text-right">{formatPercent(s.measured)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
