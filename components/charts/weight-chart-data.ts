import type { MeasuredTraffic, RolloutHistory, TimelineMarkerKind, WeightPoint } from "@/lib/rollouts/detail-types";

/** One x position of the chart; every series is aligned on `t` (epoch ms), never on array index. */
export interface WeightChartRow {
  t: number;
  requested: number | null;
  applied: number | null;
  measured: number | null;
  verified: boolean | null;
}

export interface WeightChartMarker {
  t: number;
  kind: TimelineMarkerKind;
  label: string;
  actor?: string;
}

export type MeasuredStatus =
  | { status: "none" }
  | { status: "error"; message: string; source: string }
  | { status: "no-traffic"; source: string; configureHint: string | null }
  | { status: "ok"; source: string };

export interface WeightChartData {
  from: number;
  to: number;
  rows: WeightChartRow[];
  /** Intervals where the router reported verified=false, drawn as a band. */
  unverified: Array<{ from: number; to: number }>;
  markers: WeightChartMarker[];
  measured: MeasuredStatus;
  /** Recorded weight points in the range (before alignment). */
  pointCount: number;
  /** Stretches of one revision at one step, in time order: the boundaries drawn on the chart and the table's rows. */
  segments: StepSegment[];
  /** The window shown first: the current revision's time span, or the whole range when it began before it. */
  window: TimeWindow;
}

export interface TimeWindow {
  from: number;
  to: number;
}

/** One step of one revision: what was requested, what the router applied and verified, and what was measured. */
export interface StepSegment {
  from: number;
  to: number;
  revision: string | null;
  /** `status.currentStepIndex`; null for a Rollout without steps (or before the controller set it). */
  stepIndex: number | null;
  requested: number | null;
  /** The last applied weight of the stretch (the one the step settled on). */
  applied: number | null;
  /** false when the router reported verified=false at any time of the stretch, null when it never reported. */
  verified: boolean | null;
  /** Mean measured canary share over the stretch; null without samples. */
  measured: number | null;
}

function describeMeasured(measured: MeasuredTraffic | null): MeasuredStatus {
  if (!measured) return { status: "none" };
  if (measured.error) return { status: "error", message: measured.error, source: measured.source };
  const hasTraffic = measured.points.some((p) => p.canaryPercent !== null && (p.requestsPerSecond === null || p.requestsPerSecond > 0));
  return hasTraffic
    ? { status: "ok", source: measured.source }
    : { status: "no-traffic", source: measured.source, configureHint: measured.configureHint ?? null };
}

/** The note under the chart about the third, measured line; null when the line is drawn. */
export function measuredNote(measured: MeasuredStatus): string | null {
  switch (measured.status) {
    case "none":
      return "measured traffic: no metrics source configured";
    case "error":
      // Some sources already say what failed ("measured traffic needs Prometheus…"); do not say it twice.
      return /^measured traffic\b/i.test(measured.message) ? measured.message : `measured traffic: ${measured.message}`;
    case "no-traffic":
      return measured.configureHint ? `measured traffic: ${measured.configureHint}` : "measured traffic: no traffic";
    case "ok":
      return null;
  }
}

const parse = (iso: string) => Date.parse(iso);

/**
 * Turns a RolloutHistory and the measured traffic of the same range into chart rows. Weight points are step functions: the value holds until the next
 * point, so requested/applied are carried forward onto every timestamp (measured samples included) and onto the
 * end of the range. A point recorded before `from` (the state the window opened with) is moved to `from`.
 * Measured samples are not carried: a gap is a gap.
 */
export function toWeightChartData(history: RolloutHistory, measuredTraffic: MeasuredTraffic | null = null): WeightChartData {
  const from = parse(history.from);
  const to = parse(history.to);
  const weights = history.points
    .map((p) => ({ ...p, t: Math.max(from, parse(p.at)) }))
    .filter((p) => !Number.isNaN(p.t) && p.t <= to)
    .sort((a, b) => a.t - b.t);
  const measured = describeMeasured(measuredTraffic);
  const samples =
    measured.status === "ok" && measuredTraffic
      ? measuredTraffic.points
          .map((p) => ({ t: parse(p.at), value: p.canaryPercent }))
          .filter((p) => !Number.isNaN(p.t) && p.t >= from && p.t <= to)
      : [];

  const byTime = new Map<number, WeightChartRow>();
  const rowAt = (t: number) => {
    let row = byTime.get(t);
    if (!row) {
      row = { t, requested: null, applied: null, measured: null, verified: null };
      byTime.set(t, row);
    }
    return row;
  };
  // Later points at the same (clamped) time win: they are the newer state.
  for (const p of weights) Object.assign(rowAt(p.t), { requested: p.requested, applied: p.canary, verified: p.verified });
  for (const s of samples) rowAt(s.t).measured = s.value;
  if (weights.length > 0) rowAt(to);

  const rows = [...byTime.values()].sort((a, b) => a.t - b.t);
  const weightTimes = new Set(weights.map((p) => p.t));
  let last: WeightChartRow | null = null;
  for (const row of rows) {
    if (weightTimes.has(row.t)) last = row;
    else if (last) Object.assign(row, { requested: last.requested, applied: last.applied, verified: last.verified });
  }

  const unverified: WeightChartData["unverified"] = [];
  let openAt: number | null = null;
  for (const p of weights) {
    if (p.verified === false && openAt === null) openAt = p.t;
    else if (p.verified !== false && openAt !== null) {
      unverified.push({ from: openAt, to: p.t });
      openAt = null;
    }
  }
  if (openAt !== null) unverified.push({ from: openAt, to });

  const markers = history.markers
    .map((m) => ({ t: parse(m.at), kind: m.kind, label: m.label, ...(m.actor ? { actor: m.actor } : {}) }))
    .filter((m) => !Number.isNaN(m.t) && m.t >= from && m.t <= to)
    .sort((a, b) => a.t - b.t);

  const segments = toStepSegments(weights, samples, to);
  return {
    from,
    to,
    rows,
    unverified,
    markers,
    measured,
    pointCount: history.points.length,
    segments,
    window: fitWindow(weights, from, to),
  };
}

type TimedPoint = Pick<WeightPoint, "requested" | "canary" | "verified" | "stepIndex" | "revision"> & { t: number };

function mergeVerified(a: boolean | null, b: boolean | null): boolean | null {
  if (a === false || b === false) return false;
  return a ?? b;
}

/**
 * The recorded points grouped into stretches of one (revision, step): a new stretch starts where either changes.
 * Each ends where the next begins, the last at `to`. Measured samples are averaged per stretch.
 */
function toStepSegments(
  weights: readonly TimedPoint[],
  samples: ReadonlyArray<{ t: number; value: number | null }>,
  to: number,
): StepSegment[] {
  const segments: StepSegment[] = [];
  for (const p of weights) {
    const open = segments.at(-1);
    if (open && open.revision === p.revision && open.stepIndex === p.stepIndex) {
      Object.assign(open, { requested: p.requested, applied: p.canary, verified: mergeVerified(open.verified, p.verified) });
      continue;
    }
    if (open) open.to = p.t;
    segments.push({
      from: p.t,
      to,
      revision: p.revision,
      stepIndex: p.stepIndex,
      requested: p.requested,
      applied: p.canary,
      verified: p.verified,
      measured: null,
    });
  }
  for (const segment of segments) {
    const values = samples.filter((s) => s.t >= segment.from && s.t < segment.to && s.value !== null).map((s) => s.value as number);
    segment.measured = values.length > 0 ? values.reduce((a, b) => a + b, 0) / values.length : null;
  }
  return segments;
}

const MIN_WINDOW_MS = 2 * 60_000;

/**
 * The first window of the chart: from a little before the current (latest) revision's first point to the end of
 * the range, so a rollout that began 10 minutes into a 24-hour range is not a sliver at the right edge. When the
 * revision already ran at the start of the range (or nothing is recorded), the whole range.
 */
function fitWindow(weights: ReadonlyArray<Pick<TimedPoint, "t" | "revision">>, from: number, to: number): TimeWindow {
  const last = weights.at(-1);
  if (!last) return { from, to };
  let start = last.t;
  for (let i = weights.length - 1; i >= 0 && weights[i].revision === last.revision; i--) start = weights[i].t;
  if (start <= from) return { from, to };
  const pad = Math.max(60_000, (to - start) * 0.05);
  return { from: Math.max(from, Math.min(start - pad, to - MIN_WINDOW_MS)), to };
}

/**
 * The rows plus an even grid of `slots` timestamps carrying the weights forward, so the brush (which selects by row
 * index) moves in even time steps however unevenly the weights changed. Measured values are not carried.
 */
export function withTimeGrid(rows: readonly WeightChartRow[], from: number, to: number, slots = 120): WeightChartRow[] {
  if (!(to > from) || rows.length === 0) return [...rows];
  const recorded = new Set(rows);
  const byTime = new Map(rows.map((row) => [row.t, row]));
  for (let i = 0; i <= slots; i++) {
    const t = Math.round(from + ((to - from) * i) / slots);
    if (!byTime.has(t)) byTime.set(t, { t, requested: null, applied: null, measured: null, verified: null });
  }
  const merged = [...byTime.values()].sort((a, b) => a.t - b.t);
  let last: WeightChartRow | null = null;
  for (const row of merged) {
    if (recorded.has(row)) {
      if (row.requested !== null || row.applied !== null) last = row;
    } else if (last) Object.assign(row, { requested: last.requested, applied: last.applied, verified: last.verified });
  }
  return merged;
}

/** The brush's row indexes for a time window: the first row at or after `from`, the last at or before `to`. */
export function windowIndexes(rows: ReadonlyArray<{ t: number }>, window: TimeWindow): { startIndex: number; endIndex: number } {
  const last = Math.max(0, rows.length - 1);
  const start = rows.findIndex((row) => row.t >= window.from);
  let end = last;
  while (end > 0 && rows[end].t > window.to) end--;
  const startIndex = start === -1 ? last : start;
  return { startIndex: Math.min(startIndex, end), endIndex: Math.max(startIndex, end) };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TICK_STEPS = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  24 * HOUR,
  48 * HOUR,
];

/**
 * Round-time ticks for a time axis (every 2 min, 10 min, 1 h, 1 day…), at most about `target` of them, aligned to
 * the wall clock of the given UTC offset (minutes east of UTC, as `-Date#getTimezoneOffset()`).
 */
export function timeTicks(from: number, to: number, target = 8, utcOffsetMinutes = 0): number[] {
  if (!(to > from)) return [];
  const step = TICK_STEPS.find((s) => (to - from) / s <= target) ?? TICK_STEPS[TICK_STEPS.length - 1];
  const offset = utcOffsetMinutes * MINUTE;
  const ticks: number[] = [];
  for (let t = Math.ceil((from + offset) / step) * step - offset; t <= to; t += step) ticks.push(t);
  return ticks;
}
