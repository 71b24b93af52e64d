"use client";

import { cn } from "@/components/ui/cn";
import { CheckIcon } from "@/components/ui/icons";
import { useNow } from "@/components/ui/use-now";
import { formatDuration, secondsSince } from "@/lib/format/duration";
import type { StepTimingView } from "@/lib/rollouts/detail-types";
import { formatStepPosition } from "@/lib/rollouts/step-position";
import type { RolloutStepView } from "@/lib/rollouts/view-model";

const KIND_LABEL: Record<string, string> = {
  setWeight: "weight",
  pause: "pause",
  analysis: "analysis",
  experiment: "experiment",
  setCanaryScale: "scale",
  setHeaderRoute: "header route",
  setMirrorRoute: "mirror route",
  plugin: "plugin",
  unknown: "step",
};

const PLUGIN_PHASE_CLASS: Record<string, string> = {
  Successful: "text-emerald-700 dark:text-emerald-300",
  Failed: "text-rose-700 dark:text-rose-300",
  Error: "text-rose-700 dark:text-rose-300",
  Running: "text-sky-700 dark:text-sky-300",
};

function CurrentFor({ enteredAt }: { enteredAt: string }) {
  const now = useNow(1_000);
  return <span className="tabular-nums">{formatDuration(secondsSince(enteredAt, now))}</span>;
}

interface StepsListProps {
  steps: RolloutStepView[];
  /** Time per step of the revision in progress, from the recorded timeline. */
  timings?: StepTimingView[];
  paused: boolean;
}

/** The canary steps, done ones ticked with the time they took, the current one highlighted. */
export function StepsList({ steps, timings = [], paused }: StepsListProps) {
  const timingByIndex = new Map(timings.map((t) => [t.index, t]));
  return (
    <ol className="flex flex-col" data-testid="steps">
      {steps.map((step) => {
        const timing = timingByIndex.get(step.index);
        const current = step.state === "current";
        return (
          <li
            key={step.index}
            data-testid="step-item"
            data-state={step.state}
            aria-current={current ? "step" : undefined}
            className={cn(
              "relative flex items-center gap-3 rounded-md px-2 py-1.5 text-sm",
              current &&
                (paused
                  ? "bg-amber-50 ring-1 ring-amber-400 dark:bg-amber-950/30 dark:ring-amber-700"
                  : "bg-sky-50 ring-1 ring-sky-400 dark:bg-sky-950/40 dark:ring-sky-700"),
            )}
          >
            <span
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold tabular-nums",
                step.state === "done" && "bg-emerald-100 text-emerald-700 dark:bg-emerald-500/15 dark:text-emerald-300",
                current && (paused ? "bg-amber-500 text-slate-950" : "bg-sky-700 text-white dark:bg-sky-500 dark:text-slate-950"),
                step.state === "pending" && "bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400",
              )}
            >
              {step.state === "done" ? <CheckIcon className="size-3.5" /> : step.index + 1}
            </span>
            <span className={cn("min-w-0 flex-1", step.state === "pending" && "text-slate-500 dark:text-slate-400")}>
              <span className="block truncate" title={step.label}>
                {step.label}
              </span>
              <span className="text-[11px] uppercase tracking-wide text-slate-500 dark:text-slate-400">
                {KIND_LABEL[step.kind] ?? step.kind}
              </span>
              {step.plugin && (
                <span
                  data-testid="step-plugin-status"
                  data-phase={step.plugin.phase ?? ""}
                  className={cn(
                    "block text-xs wrap-anywhere",
                    PLUGIN_PHASE_CLASS[step.plugin.phase ?? ""] ?? "text-slate-600 dark:text-slate-300",
                  )}
                >
                  {[step.plugin.operation, step.plugin.phase].filter(Boolean).join(" ")}
                  {step.plugin.message ? `: ${step.plugin.message}` : ""}
                </span>
              )}
            </span>
            <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">
              {current ? (
                <span className={cn("font-medium", paused ? "text-amber-700 dark:text-amber-300" : "text-sky-700 dark:text-sky-300")}>
                  {paused ? "paused" : "current"}
                  {" · "}
                  <span data-testid="current-step-position">{formatStepPosition({ index: step.index, total: steps.length })}</span>
                  {/* While paused, the pause callout owns the clock; two different ages would confuse. */}
                  {timing && !timing.leftAt && !paused && (
                    <>
                      {" · "}
                      <CurrentFor enteredAt={timing.enteredAt} />
                    </>
                  )}
                </span>
              ) : timing ? (
                <span className="tabular-nums" title={`${timing.enteredAt} → ${timing.leftAt ?? "now"}`}>
                  {formatDuration(timing.seconds)}
                </span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
