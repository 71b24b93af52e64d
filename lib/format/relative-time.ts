const UNITS: Array<[limitSeconds: number, unitSeconds: number, suffix: string]> = [
  [60, 1, "s"],
  [3600, 60, "m"],
  [86_400, 3600, "h"],
  [Number.POSITIVE_INFINITY, 86_400, "d"],
];

/** Server and browser clocks differ a little; a time this far in the future still reads as "just now". */
const CLOCK_SKEW_SECONDS = 30;

/**
 * Short relative time for tables: "just now", "45s ago", "12m ago", "3h ago", "2d ago", or "in 5m" for the
 * future. Returns "—" for missing or unparseable input.
 */
export function formatRelativeTime(iso: string | null | undefined, now: number): string {
  if (!iso) return "—";
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "—";
  const diffSeconds = Math.round((now - at) / 1000);
  const abs = Math.abs(diffSeconds);
  if (abs < 5 || (diffSeconds < 0 && abs <= CLOCK_SKEW_SECONDS)) return "just now";
  const [, unitSeconds, suffix] = UNITS.find(([limit]) => abs < limit) ?? UNITS[UNITS.length - 1];
  const amount = `${Math.floor(abs / unitSeconds)}${suffix}`;
  return diffSeconds >= 0 ? `${amount} ago` : `in ${amount}`;
}

// Building an Intl.DateTimeFormat costs far more than formatting with one; charts format thousands of times.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(options: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormat {
  const id = `${timeZone ?? ""}|${JSON.stringify(options)}`;
  let f = formatters.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", { ...options, timeZone });
    formatters.set(id, f);
  }
  return f;
}

const ABSOLUTE: Intl.DateTimeFormatOptions = {
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZoneName: "short",
};

/** Full timestamp for hover titles: "2026-08-18 09:41:02 UTC" style, in the given (default local) time zone. */
export function formatAbsoluteTime(iso: string | number | null | undefined, timeZone?: string): string {
  if (iso === null || iso === undefined || iso === "") return "";
  const at = typeof iso === "number" ? iso : Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const id = `${at}|${timeZone ?? ""}`;
  const known = absoluteTimes.get(id);
  if (known !== undefined) return known;
  const parts = Object.fromEntries(
    formatter(ABSOLUTE, timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const text = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName}`;
  if (absoluteTimes.size >= MAX_ABSOLUTE_TIMES) absoluteTimes.clear();
  absoluteTimes.set(id, text);
  return text;
}

/**
 * Hover titles of the same instants, formatted once: a live page redraws its tables and chart markers every few
 * seconds, and `formatToParts` was a visible share of each redraw.
 */
const absoluteTimes = new Map<string, string>();
const MAX_ABSOLUTE_TIMES = 2_000;

/**
 * Tick label for a time axis spanning `spanMs`: "09:41:30" under 15 minutes, "09:41" under two days,
 * "18 Aug, 09:00" beyond.
 */
export function formatAxisTime(at: number, spanMs: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions =
    spanMs <= 15 * 60_000
      ? { hour: "2-digit", minute: "2-digit", second: "2-digit" }
      : spanMs < 2 * 86_400_000
        ? { hour: "2-digit", minute: "2-digit" }
        : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  return formatter({ ...options, hourCycle: "h23" }, timeZone).format(at);
}
