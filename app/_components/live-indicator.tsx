"use client";

import { cn } from "@/components/ui/cn";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import { useLiveState } from "@/lib/queries/live-stream";

const LABEL = { live: "Live", reconnecting: "Reconnecting…", connecting: "Connecting…" } as const;

/** Whether the browser's stream is up: the whole page's freshness depends on it. */
export function LiveIndicator() {
  const { status, since } = useLiveState();
  const title =
    status === "live"
      ? `Receiving live updates${since ? ` since ${formatAbsoluteTime(since)}` : ""}`
      : status === "reconnecting"
        ? `Live updates interrupted${since ? ` at ${formatAbsoluteTime(since)}` : ""}; retrying. Data may be stale; polling meanwhile.`
        : "Opening the live update stream";
  return (
    <span
      data-testid="live-status"
      data-status={status}
      role="status"
      title={title}
      className={cn(
        "inline-flex h-7 shrink-0 items-center gap-2 rounded-full px-2.5 text-xs font-medium whitespace-nowrap",
        status === "live" && "bg-emerald-50 text-emerald-800 dark:bg-emerald-500/10 dark:text-emerald-300",
        status === "reconnecting" && "bg-amber-100 text-amber-900 dark:bg-amber-500/15 dark:text-amber-200",
        status === "connecting" && "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300",
      )}
    >
      <span className="relative flex size-2">
        {status === "live" && (
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-emerald-400 opacity-60 motion-reduce:hidden" />
        )}
        <span
          className={cn(
            "relative inline-flex size-2 rounded-full",
            status === "live" ? "bg-emerald-500" : status === "reconnecting" ? "bg-amber-500" : "bg-slate-400",
          )}
        />
      </span>
      {LABEL[status]}
    </span>
  );
}
