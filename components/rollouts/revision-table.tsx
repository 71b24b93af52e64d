"use client";

import { useState } from "react";
import { Badge, type Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import { ScrollArea } from "@/components/ui/scroll-area";
import { formatDuration } from "@/lib/format/duration";
import type { RevisionView } from "@/lib/rollouts/detail-types";

const OUTCOME_TONE: Record<RevisionView["outcome"], Tone> = {
  "in-progress": "blue",
  promoted: "green",
  aborted: "red",
  superseded: "neutral",
};

function durationOf(rev: RevisionView, now: number): number | null {
  const start = Date.parse(rev.startedAt);
  const end = rev.endedAt ? Date.parse(rev.endedAt) : now;
  return Number.isNaN(start) || Number.isNaN(end) ? null : Math.max(0, (end - start) / 1000);
}

/** Revisions newest first: when each ran, how it ended, and the time it spent on every step. */
const COLLAPSED = 10;

export function RevisionTable({
  revisions,
  currentRevision,
  now,
}: {
  revisions: RevisionView[];
  currentRevision: number | null;
  now: number;
}) {
  const [expanded, setExpanded] = useState(false);
  const all = [...revisions].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt));
  const sorted = expanded ? all : all.slice(0, COLLAPSED);
  return (
    <>
      <ScrollArea label="Revision history">
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-slate-500 dark:text-slate-400">
            <tr>
              <th className="px-4 py-2 font-medium">Revision</th>
              <th className="px-4 py-2 font-medium">Started</th>
              <th className="px-4 py-2 font-medium">Ended</th>
              <th className="px-4 py-2 font-medium">Took</th>
              <th className="px-4 py-2 font-medium">Outcome</th>
              <th className="px-4 py-2 font-medium">Time per step</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {sorted.map((rev) => (
              <tr
                key={rev.revision}
                data-testid="revision-row"
                data-revision={rev.revision}
                data-outcome={rev.outcome}
                className="align-top"
              >
                <td className="px-4 py-2 font-medium tabular-nums">
                  {rev.revision}
                  {String(currentRevision) === rev.revision && (
                    <span className="ml-1.5 text-xs font-normal text-slate-500 dark:text-slate-400">(current)</span>
                  )}
                </td>
                <td className="px-4 py-2">
                  <RelativeTime at={rev.startedAt} now={now} />
                </td>
                <td className="px-4 py-2">
                  {rev.endedAt ? (
                    <RelativeTime at={rev.endedAt} now={now} />
                  ) : (
                    <span className="text-slate-500 dark:text-slate-400">—</span>
                  )}
                </td>
                <td className="px-4 py-2 tabular-nums">{formatDuration(durationOf(rev, now))}</td>
                <td className="px-4 py-2">
                  <Badge tone={OUTCOME_TONE[rev.outcome] ?? "neutral"}>{rev.outcome}</Badge>
                </td>
                <td className="px-4 py-2">
                  {rev.steps.length === 0 ? (
                    <span className="text-slate-500 dark:text-slate-400">—</span>
                  ) : (
                    <ol className="flex flex-wrap gap-1">
                      {rev.steps.map((s) => (
                        <li
                          key={`${s.index}-${s.enteredAt}`}
                          title={`${s.label}: ${formatDuration(s.seconds)}`}
                          className={cn(
                            "rounded bg-slate-100 px-1.5 py-0.5 text-xs tabular-nums dark:bg-slate-800",
                            !s.leftAt && "ring-1 ring-sky-400 dark:ring-sky-600",
                          )}
                        >
                          <span className="text-slate-500 dark:text-slate-400">{s.index + 1}</span> {formatDuration(s.seconds)}
                        </li>
                      ))}
                    </ol>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
      {all.length > COLLAPSED && (
        <div className="border-t border-slate-100 px-4 py-2 dark:border-slate-800">
          <Button variant="ghost" onClick={() => setExpanded((v) => !v)} aria-expanded={expanded}>
            {expanded ? "Show fewer" : `Show all ${all.length}`}
          </Button>
        </div>
      )}
    </>
  );
}
