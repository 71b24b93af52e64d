"use client";

import { RolloutActions } from "@/components/actions/rollout-actions";
import Link from "next/link";
import { Fragment, memo, useState } from "react";
import { Button, focusRing } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { EmptyState } from "@/components/ui/empty-state";
import { formatCount } from "@/lib/format/count";
import { rolloutHref } from "@/lib/format/hrefs";
import { attentionHref, attentionLabel, type AttentionEntry, type AttentionSeverity } from "@/lib/overview/attention";
import { comparableRequestedPercent } from "@/lib/overview/fleet-query";
import { PauseClock } from "./pause-clock";
import { PhaseBadge } from "./phase-badge";
import { WeightBar } from "./weight-bar";
import { formatStepPosition } from "@/lib/rollouts/step-position";
import { clipTitle } from "@/components/ui/long-text";

const SEVERITY_STYLE: Record<AttentionSeverity, string> = {
  critical: "border-l-rose-500",
  warning: "border-l-amber-500",
  info: "border-l-sky-400",
};

const CODE_STYLE: Record<AttentionSeverity, string> = {
  critical: "text-rose-700 dark:text-rose-300",
  warning: "text-amber-700 dark:text-amber-300",
  info: "text-sky-700 dark:text-sky-300",
};

const COLLAPSED = 8;

/** A Rollout held by spec.paused is moved on by Resume; the other buttons stay for the rest of the card's reasons. */
const RESUME_ACTIONS = ["resume", "promote", "abort", "retry"] as const;

const AttentionItem = memo(function AttentionItem({ entry, onDone }: { entry: AttentionEntry; onDone: (text: string) => void }) {
  const r = entry.rollout;
  return (
    <li
      data-testid="attention-item"
      data-key={r.key}
      data-severity={entry.severity}
      data-codes={entry.reasons.map((x) => x.code).join(" ")}
      data-action={entry.action}
      className={cn(
        "flex min-w-0 flex-col gap-1.5 rounded-md border border-l-4 border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-950/40",
        SEVERITY_STYLE[entry.severity],
      )}
    >
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <PhaseBadge phase={r.phase} message={r.message} />
        <Link
          href={rolloutHref(r.cluster, r.namespace, r.name)}
          prefetch={false}
          className={cn("min-w-0 truncate font-semibold hover:underline", focusRing)}
          title={r.key}
        >
          {r.name}
        </Link>
        <span className="min-w-0 truncate text-xs text-slate-500 dark:text-slate-400" title={`${r.cluster} / ${r.namespace}`}>
          {r.cluster} / {r.namespace}
        </span>
        {r.pause && (
          <PauseClock pause={r.pause} className="ml-auto shrink-0 text-xs font-medium tabular-nums text-amber-700 dark:text-amber-300" />
        )}
      </div>
      <ul className="flex flex-col gap-0.5 text-sm">
        {entry.reasons.map((reason, i) => (
          <AttentionReasonLine key={`${reason.code}-${i}`} reason={reason} href={attentionHref(r, reason)} severity={entry.severity} />
        ))}
      </ul>
      {(r.step.total > 0 || r.canaryPercent !== null) && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 dark:text-slate-400">
          {r.step.total > 0 && (
            <span className="tabular-nums" title={r.step.label ?? undefined}>
              <span data-testid="queue-step">{formatStepPosition(r.step)}</span>
              {r.step.label ? ` · ${r.step.label}` : ""}
            </span>
          )}
          <WeightBar
            canary={r.canaryPercent}
            stable={r.stablePercent}
            requested={comparableRequestedPercent(r)}
            verified={r.verified}
            routed={r.routers.length > 0}
            className="ml-auto w-48 max-w-full"
          />
        </div>
      )}
      {entry.action === "act" ? (
        <RolloutActions
          cluster={r.cluster}
          namespace={r.namespace}
          name={r.name}
          variant="compact"
          actions={entry.reasons.some((reason) => reason.code === "NeedsResume") ? RESUME_ACTIONS : undefined}
          onDone={onDone}
        />
      ) : (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Continues on its own; nothing to do unless you want to stop it (open the rollout).
        </p>
      )}
    </li>
  );
});

/** One reason, its label linking to the finding behind it (plugins page entry or detail page section). */
function AttentionReasonLine({
  reason,
  href,
  severity,
}: {
  reason: AttentionEntry["reasons"][number];
  href: string | null;
  severity: AttentionSeverity;
}) {
  const label = attentionLabel(reason.code);
  const labelClass = cn("shrink-0 text-xs font-semibold uppercase tracking-wide leading-5", CODE_STYLE[severity]);
  return (
    <li className="flex min-w-0 flex-wrap gap-x-2" data-testid="attention-reason" data-code={reason.code}>
      {href ? (
        <Link
          href={href}
          prefetch={false}
          className={cn(labelClass, "underline decoration-dotted underline-offset-2 hover:decoration-solid", focusRing)}
          title={`${label}: see the finding`}
        >
          {label}
        </Link>
      ) : (
        <span className={labelClass}>{label}</span>
      )}
      <span className="min-w-0 truncate text-slate-700 dark:text-slate-300" title={clipTitle(reason.message)}>
        {reason.message}
      </span>
    </li>
  );
}

interface AttentionQueueProps {
  /** The most urgent entries, as many as the server sent (it caps the list; `count` is the full length). */
  entries: AttentionEntry[];
  count: number;
  critical: number;
  /** Rollouts the queue was built from. */
  total: number;
}

/**
 * The fleet's "needs attention" queue, most severe first; the long tail folds away. What needs someone comes first,
 * with its actions; what continues on its own (a timed pause) follows as information, without them. The header's
 * count is always the cards shown plus the ones the button or the note says are left.
 */
export function AttentionQueue({ entries, count, critical, total }: AttentionQueueProps) {
  const [expanded, setExpanded] = useState(false);
  // What the last action from a card did: the card itself leaves the queue once the Rollout moves on.
  const [lastDone, setLastDone] = useState<string | null>(null);
  const shown = expanded ? entries : entries.slice(0, COLLAPSED);
  const hidden = count - shown.length;
  // Counted only when the server sent the whole queue; a cut one ends with the timed pauses it left out.
  const waiting = entries.length >= count ? entries.filter((e) => e.action === "wait").length : 0;
  const firstWait = shown.findIndex((e) => e.action === "wait");
  return (
    <Card aria-labelledby="attention-title" data-testid="attention-queue" data-count={count}>
      <CardHeader
        id="attention-title"
        title="Needs attention"
        meta={
          count === 0
            ? `0 of ${formatCount(total)} rollouts`
            : `${formatCount(count)} rollouts${critical ? ` · ${formatCount(critical)} critical` : ""}${waiting ? ` · ${formatCount(waiting)} continue on their own` : ""}`
        }
        actions={
          (expanded || hidden > 0) && (
            <Button
              variant="ghost"
              onClick={() => setExpanded((v) => !v)}
              aria-expanded={expanded}
              data-testid="attention-toggle"
              data-hidden={expanded ? 0 : hidden}
            >
              {expanded ? "Show fewer" : `Show all ${formatCount(count)} (${formatCount(hidden)} more)`}
            </Button>
          )
        }
      />
      <p
        role="status"
        data-testid="attention-action-done"
        className="px-4 pt-2 text-xs text-emerald-700 empty:hidden dark:text-emerald-300"
      >
        {lastDone}
      </p>
      {entries.length === 0 ? (
        <EmptyState title="Nothing needs attention" className="py-6">
          No paused, aborted, degraded, failing or stalled rollouts match the current filters.
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-2 p-3 lg:grid-cols-2 2xl:grid-cols-3 min-[2200px]:grid-cols-4">
          {shown.map((entry, i) => (
            <Fragment key={entry.rollout.key}>
              {i === firstWait && (
                <li
                  className="col-span-full px-1 pt-1 text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400"
                  data-testid="attention-wait-heading"
                >
                  Will continue on its own
                </li>
              )}
              <AttentionItem entry={entry} onDone={setLastDone} />
            </Fragment>
          ))}
          {expanded && count > entries.length && (
            <li
              className="col-span-full px-1 text-sm text-slate-500 dark:text-slate-400"
              data-testid="attention-more"
              data-hidden={count - entries.length}
            >
              {formatCount(count - entries.length)} more; narrow the filters to see them.
            </li>
          )}
        </ul>
      )}
    </Card>
  );
}
