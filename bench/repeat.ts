/**
 * `--repeat N`: the whole measurement N times, each in a fresh `tsx bench/run.ts` (its own simulator, Prometheus,
 * servers and browser: nothing an earlier run warmed up or left behind), then per figure the median and the worst run.
 * One run on two shared cores can land on either side of a target by luck, so a target counts as met only when the
 * worst of the N runs meets it: that is the figure an operator can plan with.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { markdownTable, metCell } from "./measure";
import { headerLines, type RunContext } from "./run-context";
import { FIGURES, formatTarget, formatValues, type Better, type Figure, type RunResult, type Unit } from "./targets";

export interface FigureSummary {
  measure: string;
  unit: Unit;
  better: Better;
  /** The target's number (see Figure), none for a figure shown for its spread. */
  limit?: number;
  target: string;
  /** One per run, in run order; NaN where a run did not take the figure (it failed, or wrote no results). */
  values: number[];
  median: number;
  worst: number;
  /** Null for a figure with no target. */
  met: boolean | null;
}

/** `--repeat 3` → 3; throws on anything but a whole number of at least 1. */
export function parseRepeat(text: string): number {
  const runs = Number(text);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--repeat ${text}: expected how many runs, a whole number of at least 1`);
  return runs;
}

/** The median of the runs that took the figure (NaN when none did). */
export function median(values: readonly number[]): number {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The worst run's value: the highest of a lower-is-better figure, the lowest of a higher-is-better one. NaN when any
 * run did not take it: a run whose measurement failed is worse than any number.
 */
export function worst(values: readonly number[], better: Better): number {
  if (values.length === 0 || !values.every(Number.isFinite)) return Number.NaN;
  return better === "lower" ? Math.max(...values) : Math.min(...values);
}

/** Whether the worst run meets the figure's limit (an unknown worst, NaN, compares false: missed); null with no limit. */
export function metByWorst(figure: Pick<Figure, "limit" | "better">, worstValue: number): boolean | null {
  if (figure.limit === undefined) return null;
  return figure.better === "lower" ? worstValue <= figure.limit : worstValue >= figure.limit;
}

/** One figure across the runs; undefined when no run took it (another part of the bench). */
export function summarizeFigure(figure: Figure, results: ReadonlyArray<RunResult | undefined>): FigureSummary | undefined {
  const read = results.map((r) => (r ? figure.read(r) : undefined));
  if (read.every((v) => v === undefined)) return undefined;
  const values = read.map((v) => v ?? Number.NaN);
  const worstValue = worst(values, figure.better);
  return {
    measure: figure.measure,
    unit: figure.unit,
    better: figure.better,
    limit: figure.limit,
    target: formatTarget(figure),
    values,
    median: median(values),
    worst: worstValue,
    met: metByWorst(figure, worstValue),
  };
}

export function summarizeRuns(results: ReadonlyArray<RunResult | undefined>, figures: readonly Figure[] = FIGURES): FigureSummary[] {
  return figures.flatMap((f) => summarizeFigure(f, results) ?? []);
}

export function repeatTable(summaries: readonly FigureSummary[]): string {
  const runs = summaries[0]?.values.length ?? 0;
  return markdownTable(
    ["Measure", "Target", "Median", "Worst", `Runs (${runs}, in order)`, `Met (worst of ${runs})`],
    summaries.map((s) => [
      s.measure,
      s.target,
      formatValues([s.median], s.unit, s),
      formatValues([s.worst], s.unit, s),
      formatValues(s.values, s.unit, s),
      metCell(s.met),
    ]),
  );
}

/** The report to print and paste into BENCHMARKS.md: the header as a list, then the table. */
export function repeatReport(context: RunContext, summaries: readonly FigureSummary[]): string {
  const runs = summaries[0]?.values.length ?? 0;
  return [
    ...headerLines(context),
    `- ${runs} runs one after the other, each from a fresh server; a target counts as met only when the worst run meets it`,
    "",
    repeatTable(summaries),
  ].join("\n");
}

/**
 * One run's arguments: the parent's without `--repeat` and `--out` (each run writes its own results, which the parent
 * reads), plus the run's place in the series, which also tells it the parent already checked that the machine is idle.
 */
export function childArgs(argv: readonly string[], run: number, runs: number, outFile: string): string[] {
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repeat" || argv[i] === "--out") i++;
    else if (!argv[i].startsWith("--repeat=") && !argv[i].startsWith("--out=")) kept.push(argv[i]);
  }
  return [...kept, "--run-of", `${run}/${runs}`, "--out", outFile];
}

export interface RepeatedRun {
  run: number;
  exitCode: number;
  resultsFile: string;
  /** The run's results JSON; absent when it wrote none (it failed before the end). */
  result?: RunResult;
}

/** Copies a child's output line by line, each line marked with the run it came from. */
function prefixLines(from: Readable, to: Writable, prefix: string): Promise<unknown> {
  const lines = createInterface({ input: from, crlfDelay: Infinity });
  lines.on("line", (line) => to.write(`${prefix} ${line}\n`));
  return once(lines, "close");
}

async function runChild(command: string, args: readonly string[], cwd: string, prefix: string): Promise<number> {
  const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const copied = Promise.all([prefixLines(child.stdout, process.stdout, prefix), prefixLines(child.stderr, process.stderr, prefix)]);
  const [code] = (await once(child, "close")) as [number | null];
  await copied;
  // Killed by a signal: no exit code, and not a run that finished.
  return code ?? 1;
}

/** Runs `tsx <script>` `runs` times one after the other, each writing its results and charts into a temporary folder. */
export async function runRepeatedly(opts: {
  runs: number;
  argv: readonly string[];
  repoRoot: string;
  script: string;
}): Promise<{ dir: string; runs: RepeatedRun[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-bench-repeat-"));
  const tsx = path.join(opts.repoRoot, "node_modules/.bin/tsx");
  const runs: RepeatedRun[] = [];
  for (let run = 1; run <= opts.runs; run++) {
    // A folder per run: the charts are written next to the results, under the same names in every run.
    const resultsFile = path.join(dir, `run-${run}`, "results.json");
    const args = [opts.script, ...childArgs(opts.argv, run, opts.runs, resultsFile)];
    const prefix = `[run ${run}/${opts.runs}]`;
    console.log(`${prefix} tsx ${args.join(" ")}`);
    const exitCode = await runChild(tsx, args, opts.repoRoot, prefix);
    const result = existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, "utf8")) as RunResult) : undefined;
    runs.push({ run, exitCode, resultsFile, result });
  }
  return { dir, runs };
}
