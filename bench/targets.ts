/**
 * The figures `--repeat` sums up across runs: where one run's results JSON holds each, which way is better, and the
 * limit issue 32 sets for some of them. The single run's rows (bench/scenarios/) keep their own older targets in text;
 * these are the issue's, typed, so the repeated report can decide "met" from numbers. A figure with no limit is shown
 * for its spread only.
 */

export type Unit = "ms" | "s" | "µs" | "MB" | "KiB" | "per s" | "count";

/** Latencies, durations, bytes and losses are better lower; throughput higher. Decides which run is the worst. */
export type Better = "lower" | "higher";

/** One run's results JSON as run.ts writes it (JSON.stringify writes NaN, a figure not measured, as null). */
export type RunResult = Record<string, unknown>;

export interface Figure {
  measure: string;
  unit: Unit;
  better: Better;
  /** Issue 32's limit, in what `read` returns (milliseconds, seconds, bytes…). */
  limit?: number;
  /** The figure in one run's results: undefined when the run did not take it (another part), NaN when it failed. */
  read(result: RunResult): number | undefined;
}

/** The number at a path of a results JSON: undefined when the path is absent, NaN for null (a NaN written as JSON). */
export function numberAt(result: RunResult, ...keys: string[]): number | undefined {
  let value: unknown = result;
  for (const key of keys) {
    if (typeof value !== "object" || value === null || !(key in value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === null) return Number.NaN;
  return typeof value === "number" ? value : undefined;
}

/** a − b when both were taken (NaN propagates: a failed measurement leaves the difference unknown). */
function difference(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined || b === undefined ? undefined : a - b;
}

/** The memory part's heap kept alive per Rollout added over the baseline server (bytes). */
function keptHeapPerRollout(result: RunResult): number | undefined {
  const kept = difference(numberAt(result, "memory", "warm", "keptHeap"), numberAt(result, "memory", "baseline", "keptHeap"));
  const total = (numberAt(result, "params", "clusters") ?? Number.NaN) * (numberAt(result, "params", "rollouts") ?? Number.NaN);
  const added = difference(total, numberAt(result, "memory", "baselineRollouts"));
  return kept === undefined || added === undefined ? undefined : kept / added;
}

const lowerMs = (measure: string, limit: number | undefined, ...keys: string[]): Figure => ({
  measure,
  unit: "ms",
  better: "lower",
  limit,
  read: (r) => numberAt(r, ...keys),
});

/** Issue 32's targets first, then the figures shown for their spread; a part's run fills only its own rows. */
export const FIGURES: readonly Figure[] = [
  lowerMs("Write → DOM p95, overview", 150, "domLat", "p95"),
  lowerMs("Write → DOM p95, rollout detail page", 150, "detail", "latency", "p95"),
  {
    measure: "Live overhead over the floor (DOM p95 − bare watch p95)",
    unit: "ms",
    better: "lower",
    limit: 100,
    read: (r) => difference(numberAt(r, "domLat", "p95"), numberAt(r, "floorLat", "p95")),
  },
  lowerMs("Overview API p95, 10 clients", 100, "api", "p95"),
  lowerMs("Plugin health p95, 5 clients", 300, "pluginHealth", "p95"),
  lowerMs("Plugin health: computing the report (computeMs)", 2000, "pluginHealthComputeMs"),
  {
    measure: "Recorder: every transition stored, after the changes stopped",
    unit: "s",
    better: "lower",
    limit: 5,
    // A run that lost transitions waited 60 s for them: its drain time misses the limit by itself.
    read: (r) => numberAt(r, "recorder", "drainSeconds"),
  },
  lowerMs("First load: time to the first rollout row (one load)", 1000, "firstLoad", "firstRowMs"),
  lowerMs("First load: first rollout row p95 of the loads (first-row part)", 1000, "firstRow", "firstRow", "p95"),
  lowerMs("First load: the detail page's weights p95 (first-row part)", 1000, "firstContent", "0", "firstContent", "p95"),
  lowerMs("First load: the plugins page's first health row p95 (first-row part)", 1000, "firstContent", "1", "firstContent", "p95"),
  {
    measure: "Overview page: long tasks (≥ 50 ms) under churn",
    unit: "count",
    better: "lower",
    limit: 0,
    read: (r) => numberAt(r, "domLat", "longTasks", "count"),
  },
  {
    measure: "Detail page: long tasks (≥ 50 ms) under churn",
    unit: "count",
    better: "lower",
    limit: 0,
    read: (r) => numberAt(r, "detail", "longTasks", "count"),
  },
  lowerMs("Server: longest hold of the event loop while the pages took changes", 50, "serverHeld", "pages"),
  lowerMs("Overview page: the longest task", undefined, "domLat", "longTasks", "longestMs"),
  lowerMs("Detail page: the longest task", undefined, "detail", "longTasks", "longestMs"),
  lowerMs("Overview page: the most CPU time of one long task (its own work)", undefined, "domLat", "longTasks", "mostCpuMs"),
  lowerMs("Detail page: the most CPU time of one long task (its own work)", undefined, "detail", "longTasks", "mostCpuMs"),
  lowerMs(
    "Server: longest hold while the pages took changes, less its helper threads' waits for a core",
    undefined,
    "serverHeldOwn",
    "pages",
  ),
  lowerMs("Server: longest hold of the event loop under the API load", undefined, "serverHeld", "apis"),
  lowerMs("Server: longest hold of the event loop over the churn alone", undefined, "serverHeld", "churn"),
  lowerMs("Server: longest event-loop stall (with waits for a core) while the pages took changes", undefined, "serverStalls", "pages"),
  lowerMs("Server: longest event-loop stall (with waits for a core) under the API load", undefined, "serverStalls", "apis"),
  lowerMs("Server: longest event-loop stall (with waits for a core) over the churn alone", undefined, "serverStalls", "churn"),
  lowerMs("Live: write → SSE p95", undefined, "sseLat", "p95"),
  lowerMs("Floor: write → bare client-node watch p95", undefined, "floorLat", "p95"),
  { measure: "Overview API: failed requests", unit: "count", better: "lower", read: (r) => numberAt(r, "api", "errors") },
  { measure: "Plugin health: failed requests", unit: "count", better: "lower", read: (r) => numberAt(r, "pluginHealth", "errors") },
  lowerMs("Plugin health: the first (cold) report", undefined, "pluginHealthColdMs"),
  // The computeMs row is the kept report the first request found, computed in the background during whatever stretch
  // came before (the overview API's load); these are the ones computed while the plugins page's clients asked.
  lowerMs("Plugin health: reports computed during its measurement, mean", undefined, "pluginHealthSteadyComputeMs"),
  { measure: "Server RSS after warm-up", unit: "MB", better: "lower", read: (r) => numberAt(r, "warmRss") },
  { measure: "Server RSS after the churn", unit: "MB", better: "lower", read: (r) => numberAt(r, "churnRss") },
  {
    measure: "Recorder: transitions stored per second",
    unit: "per s",
    better: "higher",
    read: (r) => numberAt(r, "recorder", "storedPerSecond"),
  },
  { measure: "Recorder: transitions lost", unit: "count", better: "lower", read: (r) => numberAt(r, "recorder", "lost") },
  {
    measure: "Recorder: server CPU per Rollout change",
    unit: "µs",
    better: "lower",
    read: (r) => numberAt(r, "recorder", "cpuMicrosPerChange"),
  },
  lowerMs("Failover gap", undefined, "failover", "gapMs"),
  { measure: "Failover: transitions lost", unit: "count", better: "lower", read: (r) => numberAt(r, "failover", "lost") },
  { measure: "Heap kept alive per watched Rollout (memory part)", unit: "KiB", better: "lower", read: keptHeapPerRollout },
];

const UNIT_FORMAT: Record<Unit, { scale: number; digits: number; suffix: string }> = {
  ms: { scale: 1, digits: 0, suffix: " ms" },
  s: { scale: 1, digits: 1, suffix: " s" },
  µs: { scale: 1, digits: 0, suffix: " µs" },
  MB: { scale: 1 / 1024 / 1024, digits: 0, suffix: " MB" },
  KiB: { scale: 1 / 1024, digits: 1, suffix: " KiB" },
  "per s": { scale: 1, digits: 0, suffix: "/s" },
  count: { scale: 1, digits: 0, suffix: "" },
};

/**
 * Values of one unit, written once: "41 / 45 / 52 ms"; a value not measured is "n/a". Given the figure, a value on the
 * wrong side of its limit that its unit's rounding would write as the limit itself gets the digits that show the
 * miss ("100.4 ms" against "≤ 100 ms", not "100 ms" beside MISSED).
 */
export function formatValues(values: readonly number[], unit: Unit, figure?: Pick<Figure, "limit" | "better">): string {
  const { scale, digits, suffix } = UNIT_FORMAT[unit];
  if (!values.some(Number.isFinite)) return values.map(() => "n/a").join(" / ");
  const format = (v: number) => {
    const limit = figure?.limit;
    const misses = limit !== undefined && (figure?.better === "lower" ? v > limit : v < limit);
    let shown = digits;
    while (misses && shown < digits + 3 && (v * scale).toFixed(shown) === (limit * scale).toFixed(shown)) shown++;
    return (v * scale).toFixed(shown);
  };
  return `${values.map((v) => (Number.isFinite(v) ? format(v) : "n/a")).join(" / ")}${suffix}`;
}

export function formatTarget(figure: Figure): string {
  return figure.limit === undefined ? "" : `${figure.better === "lower" ? "≤" : "≥"} ${formatValues([figure.limit], figure.unit)}`;
}
