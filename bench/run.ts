/**
 * `npm run bench`: Rollscope at fleet scale against the simulator's `scale` scenario, a real Prometheus and the
 * production build, with the floor (a bare client-node watch on the same simulator) measured in the same run.
 * `--short` runs every measurement at a small scale in seconds, so the harness cannot rot (part of `npm test`); it
 * leaves out the replica failover gap (PostgreSQL and two more servers, about a minute), which `--only failover` runs
 * alone. `--repeat N` runs the whole of it N times, each from fresh servers, and reports the median and the worst run
 * (bench/repeat.ts); every run first checks that the machine is idle (bench/run-context.ts).
 *
 * This file holds the options, the table of parts and the output; each part is a module of bench/scenarios/ (named as
 * `--only` names it, and main-stack.ts, recorder.ts, cost-curve.ts), on the stack of bench/stack.ts.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseSizes } from "./cost-curve";
import { formatTable, type Distribution, type Row } from "./measure";
import { parseRepeat, repeatReport, runRepeatedly, summarizeRuns } from "./repeat";
import {
  headerLines,
  loadLine,
  loadVerdict,
  measureOtherLoad,
  readRunContext,
  refusalMessage,
  topProcesses,
  type LoadCheck,
  type RunContext,
} from "./run-context";
import { addCostCurve } from "./scenarios/cost-curve";
import { addDetailPageRows } from "./scenarios/detail-page";
import { addFailoverRows } from "./scenarios/failover";
import { addFirstRowRows } from "./scenarios/first-row";
import { measureMainStack } from "./scenarios/main-stack";
import { addMemoryRows } from "./scenarios/memory";
import { addPluginHealthRows } from "./scenarios/plugin-health";
import { addRecorderRows } from "./scenarios/recorder";
import type { BenchParams, BenchRun } from "./stack";

const repoRoot = path.resolve(import.meta.dirname, "..");
/** This script as the report's command names it, and as `--repeat` starts each run. */
const script = path.relative(repoRoot, process.argv[1]);

const { values: args } = parseArgs({
  options: {
    short: { type: "boolean", default: false },
    clusters: { type: "string" },
    rollouts: { type: "string" },
    rate: { type: "string" },
    "churn-seconds": { type: "string" },
    "recorder-rate": { type: "string" },
    samples: { type: "string" },
    out: { type: "string" },
    /** Only the recorder's stack (500 changes/s, transitions lost): minutes instead of the whole run. */
    "recorder-only": { type: "boolean", default: false },
    /** Only one part (see ONLY_PARTS): `detail-page`, `failover`, `memory`, `first-row` or `plugin-health`. */
    only: { type: "string" },
    /** The cost curve: the fleet at each of these sizes (e.g. 1000,5000,10000,20000,50000@100: 100 clusters), the curve's four figures per size. */
    sizes: { type: "string" },
    /** With `--only first-row`: how many first loads (default 10). */
    loads: { type: "string" },
    /** With `--only memory`: Rollouts per cluster of the baseline server (default 0, the empty fleet). */
    "baseline-rollouts": { type: "string" },
    /** Rollouts with managedFields and kubectl's last-applied annotation, as a real cluster keeps them. */
    bookkeeping: { type: "boolean", default: false },
    /** With `--only memory`: also write heap snapshots of both servers after the warm-up's collections, to this path prefix. */
    "heap-snapshot": { type: "string" },
    /** The whole measurement (with the other options given) this many times, each from fresh servers: median and worst. */
    repeat: { type: "string" },
    /** Chromium performance traces of the overview and detail pages while they take changes, written to this folder. */
    "browser-trace": { type: "string" },
    /**
     * The server's CPU priority (its nice value, -20–19; root for below 0), set on all its threads once it is up: a
     * server ahead of the simulator, Prometheus and Chromium tells its own stalls from waiting for one of two cores.
     */
    "server-nice": { type: "string" },
    /** Measure even when other processes keep more than half a core busy; the report then says how busy. */
    "allow-busy": { type: "boolean", default: false },
    /** Set by `--repeat` on each run it starts (e.g. 2/3): the parent checked the machine once, before the first run. */
    "run-of": { type: "string" },
  },
});
const short = args.short ?? false;
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
const P: BenchParams = {
  clusters: num(args.clusters, short ? 2 : 20),
  rollouts: num(args.rollouts, short ? 25 : 250),
  rate: num(args.rate, short ? 20 : 50),
  // The cost curve runs every size in turn: a minute of churn each unless asked for more.
  churnSeconds: num(args["churn-seconds"], short ? 5 : args.sizes ? 60 : 600),
  recorderRate: num(args["recorder-rate"], short ? 100 : 500),
  recorderSeconds: short ? 4 : 20,
  samples: num(args.samples, short ? 30 : 300),
  apiSeconds: short ? 3 : 15,
  timeScale: 60,
};

const run: BenchRun = {
  P,
  short,
  bookkeeping: args.bookkeeping ?? false,
  loads: num(args.loads, 10),
  baselineRollouts: num(args["baseline-rollouts"], 0),
  heapSnapshot: args["heap-snapshot"],
  browserTraceDir: args["browser-trace"],
  serverNice: args["server-nice"] === undefined ? undefined : Number(args["server-nice"]),
  writeChart,
};

/** Writes a chart next to the results JSON. */
function writeChart(name: string, svg: string): void {
  const file = path.join(path.dirname(outputFile()), name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, svg);
  console.log(`wrote ${path.relative(repoRoot, file)}`);
}

/**
 * `--only <part>`: one measurement alone, minutes instead of the whole run: the replica failover gap (two replicas on
 * PostgreSQL, the leader killed), the server's memory per watched Rollout, the overview's first load, the plugins
 * page's health report (cold and steady, with Prometheus), write → DOM on an open rollout detail page.
 */
const ONLY_PARTS: Record<string, (run: BenchRun, rows: Row[], figures: Record<string, unknown>) => Promise<void>> = {
  "detail-page": addDetailPageRows,
  failover: (_run, rows, figures) => addFailoverRows(rows, figures),
  memory: addMemoryRows,
  "first-row": addFirstRowRows,
  "plugin-health": addPluginHealthRows,
};

function outputFile(): string {
  if (args.out) return args.out;
  const name = args.sizes ? "cost-curve" : (args.only ?? (short ? "short" : args["recorder-only"] ? "recorder" : "latest"));
  return path.join(repoRoot, "bench/results", `${name}.json`);
}

/**
 * The idle check (not in a run `--repeat` started: its parent checked once). A busy machine ends the process with exit
 * code 2 before anything starts, unless `--allow-busy` or `--short` (which only says how busy).
 */
async function checkLoad(): Promise<LoadCheck | undefined> {
  if (args["run-of"] !== undefined) return undefined;
  const busy = await measureOtherLoad();
  const verdict = loadVerdict(busy, { short, allowBusy: args["allow-busy"] ?? false });
  if (verdict === "refuse") {
    console.error(refusalMessage(busy, topProcesses()));
    process.exit(2);
  }
  const load = { busyCores: busy, verdict };
  console.log(`bench: ${loadLine(load)}`);
  return load;
}

/** `--repeat N`: the runs, their table (printed, as Markdown), and with `--out` every run's figures with the summary. */
async function reportRepeated(runs: number, context: RunContext): Promise<never> {
  const repeated = await runRepeatedly({ runs, argv: process.argv.slice(2), repoRoot, script });
  const summaries = summarizeRuns(repeated.runs.map((r) => r.result));
  const report = repeatReport(context, summaries);
  console.log(`\n${report}\n`);
  console.log(`each run's results and charts: ${repeated.dir}`);
  if (args.out) {
    mkdirSync(path.dirname(args.out), { recursive: true });
    writeFileSync(
      args.out,
      JSON.stringify({ at: new Date().toISOString(), context, figures: summaries, runs: repeated.runs, table: report }, null, 2),
    );
    console.log(`wrote ${path.relative(repoRoot, args.out)}`);
  }
  const missed = summaries.filter((s) => s.met === false);
  if (missed.length && !short) console.log(`${missed.length} target(s) missed by the worst run`);
  const failed = repeated.runs.filter((r) => r.exitCode !== 0);
  if (failed.length) {
    console.error(`bench: run(s) ${failed.map((r) => `${r.run} (exit code ${r.exitCode})`).join(", ")} failed`);
    process.exit(1);
  }
  process.exit(0);
}

async function main(): Promise<void> {
  if (!existsSync(path.join(repoRoot, ".next/BUILD_ID"))) throw new Error("no production build: run `npx next build` first");
  const onlyPart = args.only === undefined ? undefined : ONLY_PARTS[args.only];
  if (args.only !== undefined && !onlyPart)
    throw new Error(`--only ${args.only}: unknown part (known: ${Object.keys(ONLY_PARTS).join(", ")})`);
  const repeat = args.repeat === undefined ? undefined : parseRepeat(args.repeat);
  if (repeat !== undefined && args.sizes) throw new Error("--repeat does not sum up the cost curve (--sizes): run it again instead");
  const context = readRunContext(repoRoot, script, process.argv.slice(2), await checkLoad());
  if (repeat !== undefined) await reportRepeated(repeat, context);
  const rows: Row[] = [];
  const result: Record<string, unknown> = { params: P, context };
  let curveTable: string | undefined;
  if (args.sizes) {
    curveTable = await addCostCurve(run, parseSizes(args.sizes), result);
  } else if (onlyPart) {
    await onlyPart(run, rows, result);
  } else {
    const total = P.clusters * P.rollouts;
    console.log(
      `bench: ${P.clusters} clusters × ${P.rollouts} Rollouts = ${total}, ${P.rate} weight changes/s${short ? " (short mode)" : ""}`,
    );
    if (!args["recorder-only"]) await measureMainStack(run, rows, result);
    await addRecorderRows(run, rows, result);
    if (!short && !args["recorder-only"]) await addFailoverRows(rows, result);
  }
  result.rows = rows;

  const table = [...headerLines(context), "", curveTable ?? formatTable(rows)].join("\n");
  console.log(`\n${table}\n`);
  const out = outputFile();
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify({ at: new Date().toISOString(), ...result, table }, null, 2));
  console.log(`wrote ${path.relative(repoRoot, out)}`);
  const missed = rows.filter((r) => r.met === false);
  if (missed.length && !short) console.log(`${missed.length} target(s) missed`);
  // Short mode proves the harness works end to end; it fails only when a measurement could not be taken.
  // (The cost curve and single parts say themselves when a measurement fails; the recorder-only run has only its own.)
  if (short && args.only === undefined && !args.sizes) {
    const recorder = result.recorder as { compared: number };
    const latencies = args["recorder-only"] ? [] : [result.sseLat, result.floorLat, result.domLat, result.api, result.pluginHealth];
    const broken = latencies.some((d) => (d as Distribution).n === 0) || recorder.compared === 0;
    if (broken) {
      console.error("bench: a measurement produced no samples");
      process.exit(1);
    }
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
