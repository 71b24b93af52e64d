"use client";

import { PauseIcon } from "@/components/ui/icons";
import { useNow } from "@/components/ui/use-now";
import { secondsSince } from "@/lib/format/duration";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import type { PauseState } from "@/lib/rollouts/pause";
import { PauseClock } from "./pause-clock";

const REASONS: Record<string, string> = {
  CanaryPauseStep: "Pause step",
  BlueGreenPause: "Blue-green pause before promotion",
  InconclusiveAnalysisRun: "Analysis was inconclusive",
  InconclusiveExperiment: "Experiment was inconclusive",
  Manual: "Manually paused (spec.paused)",
};

/** Why and how long the rollout is paused, with a live countdown (and progress bar) for timed pauses. */
export function PauseCallout({ pause }: { pause: PauseState }) {
  const now = useNow(1_000);
  const elapsed = secondsSince(pause.startedAt, now);
  const progress = pause.durationSeconds && elapsed !== null ? Math.min(100, (elapsed / pause.durationSeconds) * 100) : null;
  return (
    <div
      data-testid="pause-callout"
      data-indefinite={pause.indefinite}
      className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950 dark:border-amber-800 dark:bg-amber-950/30 dark:text-amber-100"
    >
      {/* When reason and clock do not fit on one line, the clock moves below as a whole, never breaking inside. */}
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        <span className="flex min-w-0 items-center gap-2">
          <PauseIcon className="size-4 shrink-0 text-amber-600 dark:text-amber-400" />
          <span className="text-sm font-semibold">{REASONS[pause.reason] ?? pause.reason}</span>
        </span>
        <PauseClock pause={pause} className="ml-auto text-lg font-semibold whitespace-nowrap tabular-nums" />
      </div>
      {progress !== null && (
        <div className="h-1.5 rounded-full bg-amber-200 dark:bg-amber-900" aria-hidden>
          <div className="h-full rounded-full bg-amber-500" style={{ width: `${progress}%` }} />
        </div>
      )}
      <p className="text-xs opacity-80">
        {pause.startedAt ? `Since ${formatAbsoluteTime(pause.startedAt)}` : "Start time unknown"}
        {pause.endsAt ? ` · ends ${formatAbsoluteTime(pause.endsAt)}` : pause.indefinite ? " · waits for a promote" : ""}
        {pause.manual && pause.reason !== "Manual" ? " · also manually paused" : ""}
      </p>
    </div>
  );
}
