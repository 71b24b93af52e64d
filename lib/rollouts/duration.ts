const UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

const GO_DURATION = /^([+-]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+)$/;
const GO_DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

/**
 * Mirrors `pkg/apis/rollouts/v1alpha1/types.go` RolloutPause.DurationSeconds: an int is seconds, a digit-only
 * string is seconds, anything else goes through Go's time.ParseDuration ("30s", "5m", "1h30m") and is truncated
 * to whole seconds. Returns null where upstream returns -1 (unparseable) or when there is no duration.
 */
export function parseDurationSeconds(value: number | string | undefined): number | null {
  if (value === undefined) return null;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : null;
  const text = value.trim();
  if (/^[+-]?\d+$/.test(text)) return Number.parseInt(text, 10);
  const match = GO_DURATION.exec(text);
  if (!match) return null;
  let seconds = 0;
  for (const [, amount, unit] of match[2].matchAll(GO_DURATION_PART)) {
    seconds += Number.parseFloat(amount) * UNIT_SECONDS[unit];
  }
  return Math.trunc(match[1] === "-" ? -seconds : seconds);
}

/** 5400 → "1h30m", 300 → "5m", 45 → "45s". */
export function formatDurationSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds === 0) return "0s";
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}`;
}
