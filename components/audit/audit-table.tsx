"use client";

import Link from "next/link";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import { rolloutHref } from "@/lib/format/hrefs";
import { ScrollArea } from "@/components/ui/scroll-area";
import { formatAuditAfter, formatAuditBefore } from "@/lib/audit/format-state";
import type { AuditEntryView } from "@/lib/audit/schema";
import { AuditOutcomeBadge } from "./audit-outcome-badge";
import { LongText } from "@/components/ui/long-text";

/** The state before the action and, when it was applied, the state it left: next to each other, or either alone. */
function AuditStates({ entry }: { entry: AuditEntryView }) {
  if (!entry.after) return <>{formatAuditBefore(entry.before)}</>;
  const after = formatAuditAfter(entry.after, entry.before?.totalSteps ?? null);
  return (
    <>
      {entry.before && <span className="block">{formatAuditBefore(entry.before)}</span>}
      <span className="block" data-testid="audit-after">
        {entry.before ? "→ " : "after: "}
        {after}
      </span>
    </>
  );
}

/** The audit log rows, newest first. */
export function AuditTable({ entries, now }: { entries: readonly AuditEntryView[]; now: number }) {
  return (
    <ScrollArea label="Audit entries">
      <table className="w-full min-w-[56rem] text-left text-sm" data-testid="audit-table">
        <thead className="text-xs uppercase tracking-wide text-slate-500 dark:text-slate-400">
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th className="px-3 py-2 font-medium">When</th>
            <th className="px-3 py-2 font-medium">Who</th>
            <th className="px-3 py-2 font-medium">Rollout</th>
            <th className="px-3 py-2 font-medium">Action</th>
            <th className="px-3 py-2 font-medium">Outcome</th>
            <th className="px-3 py-2 font-medium">Before → after</th>
            <th className="px-3 py-2 font-medium">Message</th>
            <th className="px-3 py-2 font-medium">Request / client</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr
              key={e.id}
              data-testid="audit-row"
              data-outcome={e.outcome}
              data-action={e.action}
              className="border-b border-slate-100 align-top last:border-0 dark:border-slate-800/60"
            >
              <td className="px-3 py-1.5">
                <RelativeTime at={e.at} now={now} />
              </td>
              <td className="px-3 py-1.5" title={e.groups.length ? `Groups: ${e.groups.join(", ")}` : undefined}>
                {e.user}
              </td>
              <td className="max-w-xs px-3 py-1.5 wrap-anywhere">
                <Link
                  href={rolloutHref(e.cluster, e.namespace, e.rollout)}
                  data-testid="audit-rollout-link"
                  className={cn("font-medium text-sky-700 hover:underline dark:text-sky-300", focusRing)}
                >
                  {e.rollout}
                </Link>
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  {e.cluster} / {e.namespace}
                </span>
              </td>
              <td className="px-3 py-1.5 font-mono text-xs">{e.action}</td>
              <td className="px-3 py-1.5">
                <AuditOutcomeBadge outcome={e.outcome} />
              </td>
              <td className="px-3 py-1.5 text-xs tabular-nums text-slate-600 dark:text-slate-300">
                <AuditStates entry={e} />
              </td>
              <td className="max-w-md px-3 py-1.5 text-xs break-words text-slate-700 dark:text-slate-300">
                {e.message ? <LongText text={e.message} /> : ""}
              </td>
              <td className="px-3 py-1.5 font-mono text-[11px] text-slate-500 dark:text-slate-400">
                <span className="block">{e.requestId}</span>
                <span className="block">{e.clientAddress ?? "—"}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollArea>
  );
}
