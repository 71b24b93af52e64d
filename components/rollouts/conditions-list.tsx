import { cn } from "@/components/ui/cn";
import { RelativeTime } from "@/components/ui/relative-time";
import type { ConditionView } from "@/lib/rollouts/view-model";
import { LongText } from "@/components/ui/long-text";

/** status.conditions, compactly: type, status, reason, and the message (a long one cut, with "show all"). */
export function ConditionsList({ conditions, now }: { conditions: ConditionView[]; now: number }) {
  if (conditions.length === 0) return <p className="text-sm text-slate-500 dark:text-slate-400">No conditions reported.</p>;
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {conditions.map((c) => (
        <li
          key={c.type}
          className="flex flex-wrap items-baseline gap-x-2"
          data-testid="condition"
          data-type={c.type}
          data-status={c.status}
        >
          <span
            className={cn(
              "w-14 shrink-0 text-xs font-medium",
              c.status === "True"
                ? "text-emerald-700 dark:text-emerald-400"
                : c.status === "False"
                  ? "text-rose-700 dark:text-rose-400"
                  : "text-slate-500 dark:text-slate-400",
            )}
          >
            {c.status}
          </span>
          <span className="font-medium">{c.type}</span>
          <span className="min-w-0 truncate text-xs text-slate-500 dark:text-slate-400">{c.reason}</span>
          <RelativeTime at={c.lastTransitionTime} now={now} className="ml-auto text-xs text-slate-500 dark:text-slate-400" />
          {c.message && <LongText text={c.message} className="block w-full pl-16 text-xs text-slate-600 dark:text-slate-400" limit={200} />}
        </li>
      ))}
    </ul>
  );
}
