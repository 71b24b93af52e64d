const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * Compact duration with two units at most, the second zero-padded so columns line up while ticking:
 * 45 → "45s", 245 → "4m 05s", 3720 → "1h 02m", 93600 → "1d 02h". Negative input counts as 0.
 */
export function formatDuration(totalSeconds: number | null | undefined): string {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds)) return "—";
  const seconds = Math.max(0, Math.floor(totalSeconds));
  if (seconds < MINUTE) return `${seconds}s`;
  if (seconds < HOUR) return `${Math.floor(seconds / MINUTE)}m ${pad(seconds % MINUTE)}s`;
  if (seconds < DAY) return `${Math.floor(seconds / HOUR)}h ${pad(Math.floor((seconds % HOUR) / MINUTE))}m`;
  return `${Math.floor(seconds / DAY)}d ${pad(Math.floor((seconds % DAY) / HOUR))}h`;
}

/** Whole seconds from `now` until `endsAt` (ISO), never negative; null when there is no end. */
export function secondsUntil(endsAt: string | null | undefined, now: number): number | null {
  if (!endsAt) return null;
  const end = Date.parse(endsAt);
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/** Whole seconds elapsed since `startedAt` (ISO), never negative; null when unknown. */
export function secondsSince(startedAt: string | null | undefined, now: number): number | null {
  if (!startedAt) return null;
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return null;
  return Math.max(0, Math.floor((now - start) / 1000));
}
