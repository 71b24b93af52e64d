"use client";

import { useReadiness } from "@/lib/queries/use-readiness";

/** In a demo running faster than real time, says so: pauses, ages and countdowns then pass N times faster. */
export function SimulatedTimeBadge() {
  const scale = useReadiness().data?.simulatedTimeScale;
  if (!scale) return null;
  return (
    <span
      data-testid="simulated-time"
      title={`The demo's simulated clusters run ${scale} times faster than real time: pauses and steps finish ${scale}× sooner than their specs say.`}
      className="rounded-full border border-violet-300 bg-violet-50 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-violet-900 dark:border-violet-800 dark:bg-violet-950/40 dark:text-violet-100"
    >
      simulated time ×{scale}
    </span>
  );
}
