"use client";

import { useNow } from "@/components/ui/use-now";
import { formatDuration, secondsSince, secondsUntil } from "@/lib/format/duration";
import { formatAbsoluteTime } from "@/lib/format/relative-time";
import type { PauseState } from "@/lib/rollouts/pause";

/**
 * Ticks every second from the pause's absolute times (not from the server's remainingSeconds snapshot), so it
 * stays right between updates: "resumes in 4m 05s" for timed pauses, "paused 12m 05s" for indefinite ones.
 */
export function PauseClock({ pause, className }: { pause: PauseState; className?: string }) {
  const now = useNow(1_000);
  const remaining = secondsUntil(pause.endsAt, now);
  const age = secondsSince(pause.startedAt, now);
  if (remaining !== null) {
    return (
      <span
        data-testid="pause-countdown"
        data-remaining={remaining}
        title={`Resumes at ${formatAbsoluteTime(pause.endsAt)}`}
        className={className}
      >
        {remaining > 0 ? `resumes in ${formatDuration(remaining)}` : "resuming…"}
      </span>
    );
  }
  return (
    <span
      data-testid="pause-age"
      data-age={age ?? ""}
      title={pause.startedAt ? `Paused at ${formatAbsoluteTime(pause.startedAt)}` : undefined}
      className={className}
    >
      {age !== null ? `paused ${formatDuration(age)}` : "paused"}
    </span>
  );
}
