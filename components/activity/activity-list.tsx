import Link from "next/link";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ActivityItem, ActivityKind } from "@/lib/contracts/activity";
import { rolloutHref } from "@/lib/format/hrefs";
import { LongText } from "@/components/ui/long-text";

const KIND_STYLE: Record<ActivityKind, string> = {
  abort: "bg-rose-100 text-rose-800 dark:bg-rose-500/15 dark:text-rose-200",
  analysis: "bg-violet-100 text-violet-800 dark:bg-violet-500/15 dark:text-violet-200",
  update: "bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-200",
  undo: "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-200",
  promote: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-200",
  retry: "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-200",
  pause: "bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-200",
  resume: "bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-200",
  step: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  phase: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
  other: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};

const VIA_LABEL = { rollscope: "Rollscope user", "field-manager": "field manager", event: "Event source" } as const;

/** The timeline's rows, newest first: when, which Rollout, what changed, and who (and how that is known). */
export function ActivityList({ items, now }: { items: readonly ActivityItem[]; now: number }) {
  return (
    <ol className="divide-y divide-slate-200 dark:divide-slate-800" data-testid="activity-list">
      {items.map((item) => (
        <li
          key={item.id}
          data-testid="activity-item"
          data-kind={item.kind}
          className="grid grid-cols-1 gap-x-4 gap-y-1 px-4 py-2 text-sm sm:grid-cols-[7rem_minmax(0,14rem)_minmax(0,1fr)_minmax(0,12rem)]"
        >
          <RelativeTime at={item.at} now={now} className="text-xs text-slate-500 dark:text-slate-400" />
          <span className="min-w-0">
            <Link
              href={rolloutHref(item.cluster, item.namespace, item.rollout)}
              prefetch={false}
              className={cn("block truncate font-medium hover:underline", focusRing)}
              title={`${item.cluster} / ${item.namespace} / ${item.rollout}`}
            >
              {item.rollout}
            </Link>
            <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
              {item.cluster} / {item.namespace}
            </span>
          </span>
          <span className="min-w-0">
            <span className={cn("mr-2 rounded px-1.5 py-0.5 text-[11px] font-semibold uppercase tracking-wide", KIND_STYLE[item.kind])}>
              {item.kind}
            </span>
            <span data-testid="activity-summary">{item.summary}</span>
            {item.detail && <LongText text={item.detail} className="block text-xs text-slate-600 dark:text-slate-400" />}
          </span>
          <span className="min-w-0 text-xs" data-testid="activity-actor">
            {item.actor ? (
              <>
                <span className="block truncate font-medium text-slate-900 dark:text-slate-100" title={item.actor.name}>
                  {item.actor.name}
                </span>
                <span className="text-slate-500 dark:text-slate-400">{VIA_LABEL[item.actor.via]}</span>
              </>
            ) : (
              <span className="text-slate-500 dark:text-slate-400">unknown</span>
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}
