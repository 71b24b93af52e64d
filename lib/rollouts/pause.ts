import { parseDurationSeconds } from "./duration";
import type { RolloutResource } from "./schema";
import { findCurrentStep } from "./steps";

export interface PauseState {
  /** Pause condition reason (CanaryPauseStep, BlueGreenPause, InconclusiveAnalysisRun, …) or "Manual". */
  reason: string;
  startedAt: string | null;
  durationSeconds: number | null;
  endsAt: string | null;
  remainingSeconds: number | null;
  /** No timer: only a promote (or resume) moves the Rollout on. */
  indefinite: boolean;
  /** `spec.paused` is set; the controller will not progress until it is cleared. */
  manual: boolean;
}

/**
 * Timed pauses end at `pauseCondition.startTime + duration` (`rollout/pause.go` CompletedCanaryPauseStep for
 * canary steps, `rollout/bluegreen.go` autoPromotionSeconds for blue-green). Returns null when not paused,
 * including the "waiting for rollout to unpause" window after a promote.
 */
export function derivePause(rollout: RolloutResource, now: Date): PauseState | null {
  const manual = rollout.spec?.paused === true;
  const condition = rollout.status?.pauseConditions?.[0];
  if (!condition && !manual) return null;
  if (!condition) {
    return {
      reason: "Manual",
      startedAt: null,
      durationSeconds: null,
      endsAt: null,
      remainingSeconds: null,
      indefinite: true,
      manual,
    };
  }

  const durationSeconds = derivePauseDuration(rollout, condition.reason);
  const startMs = Date.parse(condition.startTime);
  if (durationSeconds === null || Number.isNaN(startMs)) {
    return {
      reason: condition.reason,
      startedAt: condition.startTime,
      durationSeconds,
      endsAt: null,
      remainingSeconds: null,
      indefinite: durationSeconds === null,
      manual,
    };
  }
  const endsAtMs = startMs + durationSeconds * 1000;
  return {
    reason: condition.reason,
    startedAt: condition.startTime,
    durationSeconds,
    endsAt: new Date(endsAtMs).toISOString(),
    remainingSeconds: Math.max(0, Math.ceil((endsAtMs - now.getTime()) / 1000)),
    indefinite: false,
    manual,
  };
}

function derivePauseDuration(rollout: RolloutResource, reason: string): number | null {
  if (reason === "CanaryPauseStep") {
    const duration = findCurrentStep(rollout)?.step.pause?.duration;
    const seconds = parseDurationSeconds(duration);
    return seconds !== null && seconds >= 0 ? seconds : null;
  }
  if (reason === "BlueGreenPause") {
    const blueGreen = rollout.spec?.strategy?.blueGreen;
    const seconds = blueGreen?.autoPromotionSeconds ?? 0;
    return blueGreen?.autoPromotionEnabled !== false && seconds > 0 ? seconds : null;
  }
  return null;
}
