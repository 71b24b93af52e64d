const UNIT_SECONDS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };
const GO_DURATION = /^((?:\d+\.?\d*|\.\d+)(?:ns|us|µs|ms|s|m|h))+$/;
const GO_DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|ms|s|m|h)/g;

/**
 * `RolloutPause.DurationSeconds`: an int is seconds, a digit-only string is seconds, anything else is a Go
 * duration ("30s", "5m", "1h30m") truncated to whole seconds. Null when absent or unparseable.
 */
export function durationSeconds(value: number | string | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number.parseInt(text, 10);
  if (!GO_DURATION.test(text)) return null;
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(GO_DURATION_PART)) seconds += Number.parseFloat(amount) * UNIT_SECONDS[unit];
  return Math.trunc(seconds);
}

/** Go's `time.Duration.String()` for whole seconds, as `CanaryStepString` prints pause durations ("5m0s"). */
export function formatGoDuration(totalSeconds: number): string {
  if (totalSeconds === 0) return "0s";
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}
