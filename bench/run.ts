/**
 * `npm run bench`: Rollscope at fleet scale against the simulator's `scale` scenario, a real Prometheus and the
 * production build, with the floor (a bare client-node watch on the same simulator) measured in the same run.
 * `--short` runs every measurement at a small scale in seconds, so the harness cannot rot (part of `npm test`); it
 * leaves out the replica failover gap (PostgreSQL and two more servers, about a minute), which `--only failover` runs
 * alone. `--repeat N` runs the whole of it N times, each from fresh servers, and reports the median and the worst run
 * (bench/repeat.ts); every run first checks that the machine is idle (bench/run-context.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { KubeConfig, Watch } from "@kubernetes/client-node";
import Database from "better-sqlite3";
import { chromium } from "@playwright/test";
import autocannon from "autocannon";
import { startSimulation, type SimulationHandle } from "../sim/cluster";
import { findResourceType } from "../sim/resources";
import { writeRollscopeConfig } from "../sim/rollscope-config";
import { startAppProcess, type AppProcess } from "../test/harness/app-process";
import { findFreePort } from "../test/harness/free-port";
import { findLostTransitions, STORED_STATES_SQL, type StoredState } from "../test/harness/lost-transitions";
import { sumOf } from "../test/harness/metrics-text";
import { startPrometheus, type PrometheusHandle } from "../test/harness/prometheus";
import { costCurveChart, curveShape, formatCurveTable, missingPoint, parseSizes, type CurvePoint, type CurveShape } from "./cost-curve";
import { failoverRows, measureFailover } from "./failover";
import { readHeapAfterGc } from "./inspector-heap";
import { CHROMIUM_ARGS, FIRST_ROW_OBSERVER, firstRowRows, measureFirstRows, measureOtherFirstLoads, otherFirstLoadRows } from "./first-row";
import { latencyCdfChart, type LatencySamples } from "./latency-chart";
import { distribution, formatTable, mb, ms, readTreeRss, sampled, sleep, type Distribution, type Row, type Sampled } from "./measure";
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

const rolloutsType = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;
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
    /** The cost curve: the fleet at each of these sizes (e.g. 1000,5000,10000,20000), the curve's four figures per size. */
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
    /** Measure even when other processes keep more than half a core busy; the report then says how busy. */
    "allow-busy": { type: "boolean", default: false },
    /** Set by `--repeat` on each run it starts (e.g. 2/3): the parent checked the machine once, before the first run. */
    "run-of": { type: "string" },
  },
});
const short = args.short ?? false;
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
const P = {
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

interface Stack {
  sim: SimulationHandle;
  app: AppProcess;
  dir: string;
  stop(): Promise<void>;
}

/**
 * The server's old-space cap as an operator would size it (README, `ROLLSCOPE_MAX_HEAP_MB`): the default 320 MB up to
 * about 15,000 Rollouts, then about 100 MB plus 15 KiB per Rollout: twice the 7–9 KiB that stay alive after a full
 * collection (a cap with less room than that did not survive the churn: the 10,000 run's server, 240 MB alive under a
 * 320 MB cap). A larger cap only lets garbage grow: with 30 KiB the 20,000 server's RSS was 698 / 755 MB, with 15 KiB
 * 630 / 605 MB.
 */
function heapCapMb(rollouts: number): number {
  return Math.max(320, Math.ceil(100 + (rollouts * 15) / 1024));
}

async function startStack(opts: {
  clusters?: number;
  rollouts: number;
  rate: number;
  env?: Record<string, string>;
  prometheus?: boolean;
}): Promise<Stack & { prometheus?: PrometheusHandle }> {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-bench-"));
  const sim = await startSimulation({
    scenario: "scale",
    scale: {
      clusters: opts.clusters ?? P.clusters,
      rolloutsPerCluster: opts.rollouts,
      changesPerSecond: opts.rate,
      seed: 1,
      bookkeeping: args.bookkeeping,
    },
    timeScale: P.timeScale,
    seed: 1,
    kubeconfigPath: path.join(dir, "kubeconfig"),
  });
  let prometheus: PrometheusHandle | undefined;
  if (opts.prometheus) {
    // A 5 s interval (Prometheus defaults to 1 m): a 250-Rollout cluster's metrics do not answer within 1 s under load.
    prometheus = await startPrometheus({
      targets: sim.clusters.map((c) => ({ job: c.name, url: c.metricsUrl, labels: { cluster: c.name } })),
      scrapeIntervalSeconds: short ? 1 : 5,
      readyTimeoutMs: 120_000,
    });
  }
  const configPath = path.join(dir, "rollscope.yaml");
  const prometheusUrl = prometheus?.url;
  writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters, {}, (name) =>
    prometheusUrl ? { prometheus: { url: prometheusUrl, labelMatcher: `cluster="${name}"`, timeoutMs: 10_000 } } : {},
  );
  // Used once /api/readyz says ready, as a load balancer would: after the server's start-up warm-up.
  const app = await startAppProcess({
    kubeconfigPath: sim.kubeconfigPath,
    databaseUrl: `file:${path.join(dir, "rollscope.db")}`,
    env: {
      ROLLSCOPE_CONFIG: configPath,
      ROLLSCOPE_MAX_HEAP_MB: String(heapCapMb((opts.clusters ?? P.clusters) * opts.rollouts)),
      ...opts.env,
    },
    readyPath: "/api/readyz",
  });
  return {
    sim,
    app,
    dir,
    prometheus,
    async stop() {
      await app.stop();
      await prometheus?.stop();
      await sim.stop();
    },
  };
}

async function waitForFleet(app: AppProcess, expected: number): Promise<void> {
  // 2 minutes, and more for fleets over 6,000 Rollouts (the simulator settles them at a few hundred per second).
  const limitMs = Math.max(120_000, expected * 20);
  const deadline = Date.now() + limitMs;
  for (;;) {
    const res = await fetch(`${app.url}/api/rollouts`);
    const body = (await res.json()) as { total: number };
    if (body.total >= expected) return;
    if (Date.now() > deadline) throw new Error(`the app shows ${body.total} of ${expected} Rollouts after ${limitMs / 1000} s`);
    await sleep(500);
  }
}

/** Transition write times from the simulated controllers, keyed by cluster/namespace/name@resourceVersion. */
function trackWrites(sim: SimulationHandle): { writes: Map<string, number>; stop(): void } {
  const writes = new Map<string, number>();
  const stops = sim.clusters.map((c) =>
    c.controller.transitions.subscribe((e) => writes.set(`${c.name}/${e.namespace}/${e.name}@${e.resourceVersion}`, Date.now())),
  );
  return { writes, stop: () => stops.forEach((s) => s()) };
}

/** The floor: one bare client-node watch per cluster, as the dashboard identity. */
async function startFloorWatches(sim: SimulationHandle): Promise<{ seen: Map<string, number>; stop(): void }> {
  const seen = new Map<string, number>();
  const controllers: AbortController[] = [];
  for (const c of sim.clusters) {
    const kc = new KubeConfig();
    kc.loadFromFile(sim.kubeconfigPath);
    kc.setCurrentContext(c.name);
    const watch = new Watch(kc);
    const ac = await watch.watch(
      "/apis/argoproj.io/v1alpha1/rollouts",
      { resourceVersion: c.store.resourceVersion },
      (_type: string, obj: { metadata?: { namespace?: string; name?: string; resourceVersion?: string } }) => {
        const m = obj.metadata;
        if (m?.name) seen.set(`${c.name}/${m.namespace}/${m.name}@${m.resourceVersion}`, Date.now());
      },
      () => undefined,
    );
    controllers.push(ac);
  }
  return { seen, stop: () => controllers.forEach((a) => a.abort()) };
}

/** An SSE client of /api/stream recording when each upsert arrives. */
function startSseClient(app: AppProcess): { seen: Map<string, number>; stop(): void } {
  const seen = new Map<string, number>();
  const ac = new AbortController();
  void (async () => {
    const res = await fetch(`${app.url}/api/stream`, { signal: ac.signal, headers: { accept: "text/event-stream" } });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const now = Date.now();
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!frame.includes("event: delta")) continue;
        const data = frame.split("\n").find((l) => l.startsWith("data: "));
        if (!data) continue;
        const delta = JSON.parse(data.slice(6)) as { type: string; rollout?: { key: string; resourceVersion: string | null } };
        if (delta.type === "upsert" && delta.rollout) seen.set(`${delta.rollout.key}@${delta.rollout.resourceVersion}`, now);
      }
    }
  })().catch(() => undefined);
  return { seen, stop: () => ac.abort() };
}

function latencies(writes: Map<string, number>, seen: Map<string, number>): number[] {
  const out: number[] = [];
  for (const [key, at] of writes) {
    const t = seen.get(key);
    if (t !== undefined) out.push(t - at);
  }
  return out;
}

/** Probe Rollouts that move one step per promote, shown alone on the overview through its text filter. */
async function createProbes(sim: SimulationHandle, count: number, prefix = "bench-probe"): Promise<string[]> {
  const c = sim.clusters[0];
  c.store.ensureNamespace("bench");
  const steps = Array.from({ length: 60 }, (_, i) => [{ setWeight: i + 1 }, { pause: {} }]).flat();
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  for (const name of names) {
    c.store.create(rolloutsType, "bench", {
      apiVersion: "argoproj.io/v1alpha1",
      kind: "Rollout",
      metadata: { name, namespace: "bench" },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "app", image: `bench/${name}:1` }] } },
        strategy: {
          canary: {
            canaryService: `${name}-canary`,
            stableService: `${name}-stable`,
            trafficRouting: { plugins: { "argoproj-labs/gatewayAPI": { httpRoute: name } } },
            steps,
          },
        },
      },
    });
  }
  for (const name of names) {
    while (!(c.store.get(rolloutsType, "bench", name).status as { stableRS?: string } | undefined)?.stableRS) await sleep(50);
    c.store.patch(rolloutsType, "bench", name, "merge", {
      spec: { template: { spec: { containers: [{ name: "app", image: `bench/${name}:2` }] } } },
    });
  }
  return names;
}

async function measureDomLatency(stack: Stack, samples: number): Promise<Sampled> {
  const probes = await createProbes(stack.sim, 5);
  const c = stack.sim.clusters[0];
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${stack.app.url}/?q=bench-probe`, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.waitForSelector('[data-testid="rollout-row"][data-key*="bench-probe-4"] [data-testid="canary-weight"]', { timeout: 60_000 });
    await page.evaluate(() => {
      const log: Array<{ key: string; text: string; at: number }> = [];
      (window as unknown as { __benchLog: typeof log }).__benchLog = log;
      new MutationObserver((mutations) => {
        const at = Date.now();
        for (const m of mutations) {
          const el = (m.target instanceof Element ? m.target : m.target.parentElement)?.closest('[data-testid="rollout-row"]');
          const weight = el?.querySelector('[data-testid="canary-weight"]');
          if (el && weight) log.push({ key: el.getAttribute("data-key") ?? "", text: weight.textContent ?? "", at });
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const writes: Array<{ key: string; percent: number; at: number }> = [];
    const unsubscribe = c.controller.transitions.subscribe((e) => {
      if (e.namespace === "bench" && e.canaryWeight !== null)
        writes.push({ key: `${c.name}/bench/${e.name}`, percent: e.canaryWeight, at: Date.now() });
    });
    for (let i = 0; i < samples; i++) {
      const name = probes[i % probes.length];
      c.store.patch(rolloutsType, "bench", name, "merge", { status: { pauseConditions: null } }, { subresource: "status" });
      await sleep(short ? 150 : 120);
    }
    await sleep(2_000);
    unsubscribe();
    const log = await page.evaluate(
      () => (window as unknown as { __benchLog: Array<{ key: string; text: string; at: number }> }).__benchLog,
    );
    const values: number[] = [];
    for (const w of writes) {
      const shown = log.find((l) => l.key === w.key && l.at >= w.at && new RegExp(`(^|\\D)${w.percent}\\s*%`).test(l.text));
      if (shown) values.push(shown.at - w.at);
    }
    return sampled(values);
  } finally {
    await browser.close();
  }
}

/**
 * Write → DOM on an open rollout detail page, whose live view the stream writes into the page (no request): the
 * applied weight shown after each promote of one probe, and how many API requests the page made meanwhile (the
 * records refresh at most every 5 s when a recorded field changes; history, measured traffic and readiness poll).
 */
async function measureDetailDomLatency(
  stack: Stack,
  samples: number,
): Promise<{ latency: Distribution; requests: number; changes: number }> {
  const [name] = await createProbes(stack.sim, 1, "bench-detail");
  const c = stack.sim.clusters[0];
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.goto(`${stack.app.url}/rollouts/${c.name}/bench/${name}`, { waitUntil: "domcontentloaded", timeout: 60_000 });
    await page.waitForSelector('[data-testid="applied-weight"] [data-value]', { timeout: 60_000 });
    await sleep(6_000);
    let requests = 0;
    page.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (
        path.startsWith("/api/") &&
        path !== "/api/stream" &&
        path !== "/api/readyz" &&
        !path.endsWith("/history") &&
        !path.endsWith("/measured-traffic")
      )
        requests++;
    });
    await page.evaluate(() => {
      const log: Array<{ value: string; at: number }> = [];
      (window as unknown as { __benchLog: typeof log }).__benchLog = log;
      new MutationObserver(() => {
        const value = document.querySelector('[data-testid="applied-weight"] [data-value]')?.getAttribute("data-value");
        if (value && log.at(-1)?.value !== value) log.push({ value, at: Date.now() });
      }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    });
    const writes: Array<{ percent: number; at: number }> = [];
    const unsubscribe = c.controller.transitions.subscribe((e) => {
      if (e.namespace === "bench" && e.name === name && e.canaryWeight !== null) writes.push({ percent: e.canaryWeight, at: Date.now() });
    });
    for (let i = 0; i < samples; i++) {
      c.store.patch(rolloutsType, "bench", name, "merge", { status: { pauseConditions: null } }, { subresource: "status" });
      await sleep(short ? 300 : 400);
    }
    await sleep(2_000);
    unsubscribe();
    const log = await page.evaluate(() => (window as unknown as { __benchLog: Array<{ value: string; at: number }> }).__benchLog);
    const values: number[] = [];
    for (const w of writes) {
      const shown = log.find((l) => l.at >= w.at && Number(l.value) === w.percent);
      if (shown) values.push(shown.at - w.at);
    }
    return { latency: distribution(values), requests, changes: writes.length };
  } finally {
    await browser.close();
  }
}

async function measureFirstLoad(app: AppProcess): Promise<{ firstRowMs: number; jsBytes: number }> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    // What went on, for the report when no row shows.
    const trace: string[] = [];
    const start = Date.now();
    const note = (what: string) => trace.length < 40 && trace.push(`${Date.now() - start} ms ${what}`);
    page.on("crash", () => note("renderer crashed"));
    page.on("pageerror", (e) => note(`page error: ${e.message.slice(0, 160)}`));
    page.on("console", (m) => m.type() === "error" && note(`console: ${m.text().slice(0, 160)}`));
    page.on("response", (r) => !r.url().includes("/_next/") && note(`${r.status()} ${new URL(r.url()).pathname}`));
    page.on("requestfailed", (r) => note(`failed ${new URL(r.url()).pathname}: ${r.failure()?.errorText}`));
    // The page notes, itself, when a rollout row is first shown (attached, visible, then the next frame): Playwright's
    // own polling runs on the page's main thread too and would add its delays on a busy machine.
    await page.addInitScript({
      // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
      content: FIRST_ROW_OBSERVER,
    });
    await page.goto(app.url, { waitUntil: "domcontentloaded", timeout: 60_000 });
    note("DOMContentLoaded");
    try {
      // The page's own note (performance.now(): from the start of navigation) once a row has been shown.
      await page.waitForFunction(() => ((window as unknown as { __firstRowAt?: number }).__firstRowAt ?? -1) >= 0, undefined, {
        timeout: 60_000,
        polling: 100,
      });
    } catch (err) {
      const rows = await page.evaluate(() => document.querySelectorAll('[data-testid="rollout-row"]').length).catch(() => "unknown");
      const shown = (
        await page
          .locator("main")
          .innerText({ timeout: 5_000 })
          .catch(() => "")
      )
        .replace(/\s+/g, " ")
        .slice(0, 200);
      throw new Error(`${String(err).split("\n")[0]}; rows in the DOM: ${rows}; the page showed: ${shown}; ${trace.join("; ")}`);
    }
    const firstRowMs = await page.evaluate(() => (window as unknown as { __firstRowAt: number }).__firstRowAt);
    const jsBytes = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .filter((e) => (e as PerformanceResourceTiming).initiatorType === "script" || e.name.endsWith(".js"))
        .reduce((sum, e) => sum + ((e as PerformanceResourceTiming).transferSize || (e as PerformanceResourceTiming).encodedBodySize), 0),
    );
    return { firstRowMs, jsBytes };
  } finally {
    await browser.close();
  }
}

async function measureApi(url: string, seconds: number, connections = 10): Promise<Distribution & { errors: number }> {
  const times: number[] = [];
  let errors = 0;
  const instance = autocannon({ url, connections, duration: seconds });
  instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    if (statusCode === 200) times.push(responseTime);
    else errors++;
  });
  await new Promise<void>((resolve, reject) => instance.on("done", () => resolve()).on("error", reject));
  return { ...distribution(times), errors };
}

/**
 * The pages of the sample tables and their indexes (SQLite's dbstat): what a million samples cost, apart from the
 * events, the other tables and the write-ahead log, which a short run's few samples cannot amortise.
 */
function sampleTableBytes(db: Database.Database): number {
  const tables = ["RolloutSample", "RolloutKey", "SampleMessage"];
  const names = db
    .prepare(`SELECT name FROM sqlite_master WHERE tbl_name IN (${tables.map(() => "?").join(", ")})`)
    .all(...tables) as Array<{ name: string }>;
  const query = db.prepare(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (${names.map(() => "?").join(", ")})`);
  return (query.get(...names.map((n) => n.name)) as { bytes: number }).bytes;
}

interface RecorderFigures {
  storedPerSecond: number;
  lost: number;
  compared: number;
  achievedPerSecond: number;
  bytesPerMillion: number;
  fileBytesPerMillion: number;
  drainSeconds: number;
  /** Rollout changes the server's watches delivered a second, and the server's CPU per change (all its work). */
  watchedChangesPerSecond: number;
  cpuMicrosPerChange: number;
  /** Watches that had to list again meanwhile (their history expired): the changes in between cannot be seen. */
  relists: number;
}

async function measureRecorder(): Promise<RecorderFigures> {
  const metricsAddress = `127.0.0.1:${await findFreePort()}`;
  const stack = await startStack({ rollouts: P.rollouts, rate: P.recorderRate, env: { ROLLSCOPE_METRICS_LISTEN: metricsAddress } });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    await sleep(2_000);
    const countersBefore = await readAppCounters(metricsAddress);
    const startRv = new Map(stack.sim.clusters.map((c) => [c.name, Number(c.store.resourceVersion)]));
    const dbFile = path.join(stack.dir, "rollscope.db");
    const db = new Database(dbFile, { readonly: true });
    const before = (db.prepare("SELECT COUNT(*) AS n FROM RolloutSample").get() as { n: number }).n;
    const started = Date.now();
    await sleep(P.recorderSeconds * 1000);
    const elapsed = (Date.now() - started) / 1000;
    const mid = (db.prepare("SELECT COUNT(*) AS n FROM RolloutSample").get() as { n: number }).n;
    // Stop the changes and compare until the watches and the recorder's batches have drained: a transition is lost
    // when it is still missing a minute after the last change, not when the busy server stores it a few seconds late.
    for (const c of stack.sim.clusters) await c.controller.stop();
    const stoppedAt = Date.now();
    const clusters = stack.sim.clusters.map((c) => ({
      name: c.name,
      transitions: c.controller.transitions.entries,
      afterResourceVersion: startRv.get(c.name)!,
    }));
    const compare = () => {
      const stored = db.prepare(STORED_STATES_SQL).all() as StoredState[];
      return { rows: stored, ...findLostTransitions(clusters, stored) };
    };
    let { rows, compared, lost } = compare();
    while (lost.length > 0 && Date.now() - stoppedAt < 60_000) {
      await sleep(1_000);
      ({ rows, compared, lost } = compare());
    }
    const drainSeconds = (Date.now() - stoppedAt) / 1000;
    // From before the changes to the last one stored: every change the watches delivered and all the server did for it.
    const countersAfter = await readAppCounters(metricsAddress);
    const changes = countersAfter.rolloutWatchEvents - countersBefore.rolloutWatchEvents;
    const watchedChangesPerSecond = changes / ((Date.now() - started) / 1000);
    const cpuMicrosPerChange = ((countersAfter.cpuSeconds - countersBefore.cpuSeconds) / Math.max(1, changes)) * 1e6;
    if (lost.length > 0) {
      console.error(`recorder: ${lost.length} transitions still missing after 60 s, e.g. ${lost.slice(0, 5).join("; ")}`);
      console.error(`recorder: the server's last log lines:\n${stack.app.logs().split("\n").slice(-30).join("\n")}`);
    }
    const sampleBytes = sampleTableBytes(db);
    db.close();
    const size = statSync(dbFile).size + (existsSync(`${dbFile}-wal`) ? statSync(`${dbFile}-wal`).size : 0);
    const perMillion = (bytes: number) => (bytes / Math.max(1, rows.length)) * 1e6;
    return {
      storedPerSecond: (mid - before) / elapsed,
      lost: lost.length,
      compared,
      achievedPerSecond: compared / elapsed,
      bytesPerMillion: perMillion(sampleBytes),
      fileBytesPerMillion: perMillion(size),
      drainSeconds,
      watchedChangesPerSecond,
      cpuMicrosPerChange,
      relists: countersAfter.relists - countersBefore.relists,
    };
  } finally {
    await stack.stop();
  }
}

/** Write → SSE and write → bare watch (the floor) for the same status writes, until `P.samples` arrived over SSE. */
async function measureLiveLatency(stack: Stack): Promise<{ sseLat: Sampled; floorLat: Sampled }> {
  const writes = trackWrites(stack.sim);
  const floor = await startFloorWatches(stack.sim);
  const sse = startSseClient(stack.app);
  await sleep(1_000);
  writes.writes.clear();
  const liveStart = Date.now();
  while (latencies(writes.writes, sse.seen).length < P.samples && Date.now() - liveStart < 120_000) await sleep(500);
  await sleep(1_000);
  writes.stop();
  floor.stop();
  sse.stop();
  return { sseLat: sampled(latencies(writes.writes, sse.seen)), floorLat: sampled(latencies(writes.writes, floor.seen)) };
}

/**
 * The main stack (Prometheus, the app, Chromium): live latency against the floor, first load, DOM latency, the
 * overview and plugin-health APIs, RSS before and after the churn; rows for the table and figures for the JSON.
 */
async function measureMainStack(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const total = P.clusters * P.rollouts;
  // Baseline RSS: the same app watching the same number of clusters with no Rollouts.
  const empty = await startStack({ rollouts: 0, rate: 0, prometheus: true });
  await sleep(3_000);
  const baselineRss = readTreeRss(empty.app.pid()!);
  await empty.stop();

  const stack = await startStack({ rollouts: P.rollouts, rate: P.rate, prometheus: true });
  try {
    await waitForFleet(stack.app, total);
    await sleep(3_000);
    const warmRss = readTreeRss(stack.app.pid()!);

    const { sseLat, floorLat } = await measureLiveLatency(stack);
    // A browser measurement that times out is reported as missing rather than ending the run. First load comes
    // first: it is what an SRE opening the dashboard gets, before the probes of the DOM measurement exist.
    const firstLoad = await measureFirstLoad(stack.app).catch((err: unknown) => {
      console.error(`first load not measured: ${String(err).split("\n")[0]}`);
      return { firstRowMs: Number.NaN, jsBytes: Number.NaN };
    });
    const domLat = await measureDomLatency(stack, P.samples).catch((err: unknown) => {
      console.error(`DOM latency not measured: ${String(err).split("\n")[0]}`);
      return sampled([]);
    });
    const detail = await measureDetailDomLatency(stack, Math.min(P.samples, 60)).catch((err: unknown) => {
      console.error(`detail-page latency not measured: ${String(err).split("\n")[0]}`);
      return { latency: distribution([]), requests: Number.NaN, changes: 0 };
    });
    const api = await measureApi(`${stack.app.url}/api/rollouts`, P.apiSeconds);
    const { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs } = await measurePluginHealth(stack.app);

    console.log(`churn for ${P.churnSeconds} s…`);
    await sleep(P.churnSeconds * 1000);
    const churnRss = readTreeRss(stack.app.pid()!);

    rows.push(
      {
        metric: `Live: write → SSE p50/p95/p99 (n=${sseLat.n})`,
        value: `${ms(sseLat.p50)} / ${ms(sseLat.p95)} / ${ms(sseLat.p99)}`,
        target: "",
        met: null,
      },
      {
        metric: `Floor: write → bare client-node watch p50/p95/p99 (n=${floorLat.n})`,
        value: `${ms(floorLat.p50)} / ${ms(floorLat.p95)} / ${ms(floorLat.p99)}`,
        target: "",
        met: null,
      },
      {
        metric: `Live: write → DOM p50/p95/p99 (n=${domLat.n})`,
        value: `${ms(domLat.p50)} / ${ms(domLat.p95)} / ${ms(domLat.p99)}`,
        target: "p95 ≤ 300 ms",
        met: domLat.p95 <= 300,
      },
      ...detailPageRows(detail),
      {
        metric: "Live overhead over the floor (DOM p95 − watch p95)",
        value: ms(domLat.p95 - floorLat.p95),
        target: "≤ 150 ms",
        met: domLat.p95 - floorLat.p95 <= 150,
      },
      {
        metric: `Overview API p50/p95, 10 clients (n=${api.n}, errors ${api.errors})`,
        value: `${ms(api.p50)} / ${ms(api.p95)}`,
        target: "p95 ≤ 150 ms",
        met: api.p95 <= 150 && api.errors === 0,
      },
      ...pluginHealthRows(pluginHealth, pluginHealthColdMs, pluginHealthComputeMs),
      {
        metric: "First load: time to the first rollout row",
        value: Number.isFinite(firstLoad.firstRowMs) ? ms(firstLoad.firstRowMs) : "no row within 60 s",
        target: "≤ 1.0 s",
        met: firstLoad.firstRowMs <= 1000,
      },
      {
        metric: "First load: JS transferred",
        value: Number.isFinite(firstLoad.jsBytes) ? `${(firstLoad.jsBytes / 1024).toFixed(0)} KiB` : "not measured",
        target: "",
        met: null,
      },
      { metric: `Server RSS after warm-up (${total} Rollouts)`, value: mb(warmRss), target: "≤ 500 MB", met: warmRss <= 500 * 1024 * 1024 },
      {
        metric: `Server RSS after ${P.churnSeconds} s of churn`,
        value: mb(churnRss),
        target: "≤ 500 MB",
        met: churnRss <= 500 * 1024 * 1024,
      },
      {
        metric: "Bytes per watched Rollout ((warm − empty fleet) / Rollouts)",
        value: `${((warmRss - baselineRss) / total / 1024).toFixed(1)} KiB`,
        target: "",
        met: null,
      },
    );
    Object.assign(figures, {
      sseLat,
      floorLat,
      domLat,
      detail,
      firstLoad,
      api,
      pluginHealth,
      pluginHealthColdMs,
      pluginHealthComputeMs,
      warmRss,
      churnRss,
      baselineRss,
    });
    const chartName = short ? "short-latency-cdf.svg" : "latency-cdf.svg";
    writeChart(
      chartName,
      latencyCdfChart(
        { floor: floorLat.samples, sse: sseLat.samples, dom: domLat.samples },
        `${total} Rollouts, ${P.rate} weight changes/s, ${new Date().toISOString().slice(0, 16)} UTC`,
      ),
    );
  } finally {
    await stack.stop();
  }
}

/** One size of the cost curve: its stack with no Prometheus and no baseline, only the curve's four figures. */
async function measureCurvePoint(shape: CurveShape): Promise<{ point: CurvePoint; latency: LatencySamples }> {
  const rollouts = shape.clusters * shape.rolloutsPerCluster;
  const stack = await startStack({ clusters: shape.clusters, rollouts: shape.rolloutsPerCluster, rate: P.rate });
  try {
    await waitForFleet(stack.app, rollouts);
    await sleep(3_000);
    const rssWarmBytes = readTreeRss(stack.app.pid()!);
    const { sseLat, floorLat } = await measureLiveLatency(stack);
    const firstLoad = await measureFirstLoad(stack.app).catch((err: unknown) => {
      console.error(`first load not measured: ${String(err).split("\n")[0]}`);
      return { firstRowMs: Number.NaN };
    });
    const domLat = await measureDomLatency(stack, P.samples).catch(() => sampled([]));
    const api = await measureApi(`${stack.app.url}/api/rollouts`, P.apiSeconds);
    await sleep(P.churnSeconds * 1000);
    const point: CurvePoint = {
      ...shape,
      rollouts,
      rssWarmBytes,
      rssAfterChurnBytes: readTreeRss(stack.app.pid()!),
      overviewP95Ms: api.p95,
      firstRowMs: firstLoad.firstRowMs,
      domP95Ms: domLat.p95,
    };
    return { point, latency: { floor: floorLat.samples, sse: sseLat.samples, dom: domLat.samples } };
  } finally {
    await stack.stop();
  }
}

interface HeapFigures {
  used: number;
  total: number;
  newSpace: number;
  external: number;
}

/** The server's V8 heap as its /metrics reports it (prom-client's default Node.js metrics). */
async function readHeapFigures(metricsAt: string): Promise<HeapFigures> {
  const text = await (await fetch(`http://${metricsAt}/metrics`)).text();
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? Number.NaN);
  return {
    used: value(/^nodejs_heap_size_used_bytes (\S+)/m),
    total: value(/^nodejs_heap_size_total_bytes (\S+)/m),
    newSpace: value(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)/m),
    external: value(/^nodejs_external_memory_bytes (\S+)/m),
  };
}

/** One server of the memory part: its /metrics and its inspector (for full collections) on ports of their own. */
async function startMemoryStack(rollouts: number, rate: number): Promise<{ stack: Stack; metricsAt: string; inspectorPort: number }> {
  const metricsAt = `127.0.0.1:${await findFreePort()}`;
  const inspectorPort = await findFreePort();
  const env = {
    ROLLSCOPE_METRICS_LISTEN: metricsAt,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --inspect=127.0.0.1:${inspectorPort}`.trim(),
  };
  return { stack: await startStack({ rollouts, rate, env }), metricsAt, inspectorPort };
}

interface MemoryFigures {
  rss: number;
  heap: HeapFigures;
  /** After full collections: the V8 heap kept alive, and the RSS then. */
  keptHeap: number;
  rssAfterGc: number;
}

/** A settled server's memory: as found (RSS, heap), then after full collections (heap kept alive, RSS). */
async function readMemory(stack: Stack, metricsAt: string, inspectorPort: number, snapshotFile?: string): Promise<MemoryFigures> {
  const rss = readTreeRss(stack.app.pid()!);
  const heap = await readHeapFigures(metricsAt);
  const keptHeap = (await readHeapAfterGc(inspectorPort, snapshotFile)).usedSize;
  return { rss, heap, keptHeap, rssAfterGc: readTreeRss(stack.app.pid()!) };
}

/** Where `--heap-snapshot` writes one server's snapshot (undefined without the option). */
const snapshotPath = (server: "baseline" | "warm") =>
  args["heap-snapshot"] ? `${args["heap-snapshot"]}-${server}.heapsnapshot` : undefined;

const perRollout = (warm: number, baseline: number, added: number) => `${((warm - baseline) / added / 1024).toFixed(1)} KiB`;

/**
 * `--only memory`: the server's memory with an empty fleet (the same clusters, no Rollouts: the fixed costs such as
 * compiled code; `--baseline-rollouts N` per cluster instead, so both servers ran the same code) and with the whole fleet, without the browser, Prometheus or the API load of the main stack (so its
 * rows compare runs of the same option, not with the main run's). Both servers answer the same requests first, so
 * they compiled the same code. The target is on the heap kept alive after full collections (asked for over the
 * inspector the bench starts them with); RSS also holds garbage not yet collected, so its difference is noisy.
 */
async function addMemoryRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const total = P.clusters * P.rollouts;
  const baselineRollouts = num(args["baseline-rollouts"], 0);
  const added = total - P.clusters * baselineRollouts;
  const base = await startMemoryStack(baselineRollouts, baselineRollouts > 0 ? P.rate : 0);
  let baseline: MemoryFigures;
  try {
    await waitForFleet(base.stack.app, P.clusters * baselineRollouts);
    await sleep(3_000);
    baseline = await readMemory(base.stack, base.metricsAt, base.inspectorPort, snapshotPath("baseline"));
  } finally {
    await base.stack.stop();
  }
  const full = await startMemoryStack(P.rollouts, P.rate);
  try {
    await waitForFleet(full.stack.app, total);
    await sleep(3_000);
    const warm = await readMemory(full.stack, full.metricsAt, full.inspectorPort, snapshotPath("warm"));
    console.log(`churn for ${P.churnSeconds} s…`);
    await sleep(P.churnSeconds * 1000);
    const churn = await readMemory(full.stack, full.metricsAt, full.inspectorPort);
    const heapRow = (label: string, pick: (h: HeapFigures) => number) => ({
      metric: `${label}, baseline → warm (memory part)`,
      value: `${mb(pick(baseline.heap))} → ${mb(pick(warm.heap))}`,
      target: "",
      met: null,
    });
    rows.push(
      heapRow("V8 heap used", (h) => h.used),
      heapRow("V8 heap total", (h) => h.total),
      heapRow("V8 new space", (h) => h.newSpace),
      heapRow("External memory", (h) => h.external),
      {
        metric: `Server RSS, baseline fleet (${P.clusters * baselineRollouts} Rollouts, memory part)`,
        value: mb(baseline.rss),
        target: "",
        met: null,
      },
      { metric: `Server RSS after warm-up (${total} Rollouts, memory part)`, value: mb(warm.rss), target: "", met: null },
      { metric: `Server RSS after ${P.churnSeconds} s of churn (memory part)`, value: mb(churn.rss), target: "", met: null },
      {
        metric: "RSS per watched Rollout ((warm − baseline) / Rollouts added, memory part)",
        value: perRollout(warm.rss, baseline.rss, added),
        target: "",
        met: null,
      },
      {
        metric: `V8 heap kept alive after full GC, baseline → warm → after churn (memory part)`,
        value: `${mb(baseline.keptHeap)} → ${mb(warm.keptHeap)} → ${mb(churn.keptHeap)}`,
        target: "",
        met: null,
      },
      {
        metric: "Heap kept alive per watched Rollout after full GC ((warm − baseline) / Rollouts added, memory part)",
        value: perRollout(warm.keptHeap, baseline.keptHeap, added),
        target: "≤ 10 KiB",
        met: warm.keptHeap - baseline.keptHeap <= added * 10 * 1024,
      },
      {
        metric: "…the same after the churn (memory part)",
        value: perRollout(churn.keptHeap, baseline.keptHeap, added),
        target: "",
        met: null,
      },
      {
        metric: "RSS per watched Rollout after full GC (memory part)",
        value: perRollout(warm.rssAfterGc, baseline.rssAfterGc, added),
        target: "",
        met: null,
      },
    );
    Object.assign(figures, {
      memory: { baselineRollouts: P.clusters * baselineRollouts, baseline, warm, churn, bookkeeping: args.bookkeeping },
    });
  } finally {
    await full.stack.stop();
  }
}

/**
 * The plugins page's health panels: derived from the controller's metrics in the real Prometheus, which has been
 * scraping every simulated cluster since the stack started. The first request is what the first visitor waits for
 * (the default view is kept computed in the background, so also how long that report took to compute, its
 * computeMs); the steady state is what everyone after gets.
 */
async function measurePluginHealth(
  app: AppProcess,
): Promise<{ pluginHealth: Distribution & { errors: number }; pluginHealthColdMs: number; pluginHealthComputeMs: number }> {
  const coldStart = performance.now();
  const cold = await fetch(`${app.url}/api/plugins/health?range=1h`, { signal: AbortSignal.timeout(120_000) })
    .then(async (res) => (res.ok ? ((await res.json()) as { computeMs?: number }) : null))
    .catch(() => null);
  const pluginHealthColdMs = cold ? performance.now() - coldStart : Number.NaN;
  // The first answer may come from a report the server computed in the background: how long that computation took.
  const pluginHealthComputeMs = cold?.computeMs ?? Number.NaN;
  const pluginHealth = await measureApi(`${app.url}/api/plugins/health?range=1h`, P.apiSeconds, 5);
  return { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs };
}

function pluginHealthRows(pluginHealth: Distribution & { errors: number }, coldMs: number, computeMs: number): Row[] {
  return [
    {
      metric: `Plugin health p50/p95, ${P.clusters} clusters, Prometheus, 5 clients (n=${pluginHealth.n}, errors ${pluginHealth.errors})`,
      value: `${ms(pluginHealth.p50)} / ${ms(pluginHealth.p95)}`,
      target: "p95 ≤ 300 ms",
      met: pluginHealth.p95 <= 300 && pluginHealth.errors === 0,
    },
    {
      metric: "Plugin health: the first (cold) report",
      value: Number.isFinite(coldMs) ? ms(coldMs) : "failed",
      target: "≤ 1.5 s",
      met: Number.isFinite(coldMs) ? coldMs <= 1500 : false,
    },
    {
      metric: "Plugin health: computing the report the first answer carried (its computeMs; in the background when kept)",
      value: Number.isFinite(computeMs) ? ms(computeMs) : "not reported",
      target: "",
      met: null,
    },
  ];
}

/**
 * `--only plugin-health`: the scale scenario with Prometheus and the production app, the fleet loaded, a minute of
 * scrapes and churn, then the same cold request and steady-state load as the full run.
 */
async function addPluginHealthRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const metricsAddress = `127.0.0.1:${await findFreePort()}`;
  const stack = await startStack({
    rollouts: P.rollouts,
    rate: P.rate,
    prometheus: true,
    env: { ROLLSCOPE_METRICS_LISTEN: metricsAddress },
  });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    const settleSeconds = short ? 5 : 60;
    console.log(`plugin health: ${settleSeconds} s of scrapes and churn before the cold report…`);
    await sleep(settleSeconds * 1000);
    const before = await readAppCounters(metricsAddress);
    const { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs } = await measurePluginHealth(stack.app);
    const after = await readAppCounters(metricsAddress);
    // What the cold report and the steady state cost the app (its CPU, its event loop's lag), from its own /metrics.
    const cost = { cpuSeconds: after.cpuSeconds - before.cpuSeconds, eventLoopLagP99Ms: after.lagP99Seconds * 1000 };
    console.log(`plugin health: cold report and steady state cost the app ${JSON.stringify(cost)}`);
    rows.push(...pluginHealthRows(pluginHealth, pluginHealthColdMs, pluginHealthComputeMs));
    rows.push({
      metric: "Plugin health: the app's CPU for the cold report and the steady state; event-loop lag p99",
      value: `${cost.cpuSeconds.toFixed(1)} s; ${cost.eventLoopLagP99Ms.toFixed(0)} ms`,
      target: "",
      met: null,
    });
    Object.assign(figures, { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs, pluginHealthCost: cost });
  } finally {
    await stack.stop();
  }
}

/** The cost curve: every size in turn (a size that fails is reported as n/a); the table and the chart. */
async function addCostCurve(sizes: number[], figures: Record<string, unknown>): Promise<string> {
  const points: CurvePoint[] = [];
  const latencyBySize: Record<number, LatencySamples> = {};
  for (const size of sizes) {
    const shape = curveShape(size);
    console.log(`cost curve: ${shape.clusters} clusters × ${shape.rolloutsPerCluster} Rollouts, ${P.rate} weight changes/s…`);
    const measured = await measureCurvePoint(shape).catch((err: unknown) => {
      console.error(`cost curve at ${size}: not measured: ${String(err).split("\n")[0]}`);
      return null;
    });
    points.push(measured?.point ?? missingPoint(shape));
    if (measured) latencyBySize[size] = measured.latency;
  }
  const caption = `${P.rate} weight changes/s fleet-wide, ${P.churnSeconds} s of churn per size, ${new Date().toISOString().slice(0, 16)} UTC`;
  writeChart("cost-curve.svg", costCurveChart(points, caption));
  const largest = Math.max(...Object.keys(latencyBySize).map(Number));
  if (Number.isFinite(largest))
    writeChart("cost-curve-latency-cdf.svg", latencyCdfChart(latencyBySize[largest], `${largest} Rollouts (cost curve run)`));
  Object.assign(figures, { curve: points, curveLatency: latencyBySize });
  return formatCurveTable(points);
}

/** Writes a chart next to the results JSON. */
function writeChart(name: string, svg: string): void {
  const file = path.join(path.dirname(outputFile()), name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, svg);
  console.log(`wrote ${path.relative(repoRoot, file)}`);
}

/** The app's own counters from its /metrics: CPU seconds, event-loop lag, the Rollout changes its watches delivered. */
async function readAppCounters(
  address: string,
): Promise<{ cpuSeconds: number; lagP99Seconds: number; rolloutWatchEvents: number; relists: number }> {
  const text = await (await fetch(`http://${address}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return {
    cpuSeconds: value("process_cpu_seconds_total"),
    lagP99Seconds: value("nodejs_eventloop_lag_p99_seconds"),
    rolloutWatchEvents: sumOf(text, "rollscope_watch_events_total", { kind: "rollouts" }),
    relists: sumOf(text, "rollscope_watch_relists_total"),
  };
}

/** The recorder's stack: rows for the table; its figures go into the JSON. */
async function addRecorderRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const recorder = await measureRecorder();
  rows.push(
    {
      metric: `Recorder: transitions stored per second (at ${P.recorderRate} changes/s)`,
      value: recorder.storedPerSecond.toFixed(0),
      target: "",
      met: null,
    },
    {
      metric: `Recorder: transitions the simulator wrote per second (asked for ${P.recorderRate})`,
      value: recorder.achievedPerSecond.toFixed(0),
      target: "",
      met: null,
    },
    {
      metric: "Recorder: Rollout changes the server's watches delivered per second, and its CPU per change",
      value: `${recorder.watchedChangesPerSecond.toFixed(0)}; ${recorder.cpuMicrosPerChange.toFixed(0)} µs`,
      target: "",
      met: null,
    },
    {
      metric: `Recorder: transitions lost (of ${recorder.compared}; watches that listed again meanwhile: ${recorder.relists})`,
      value: String(recorder.lost),
      target: "0",
      met: recorder.lost === 0,
    },
    {
      metric: "Recorder: every transition stored, after the changes stopped",
      value: recorder.lost === 0 ? `${recorder.drainSeconds.toFixed(0)} s` : "not within 60 s",
      target: "≤ 5 s",
      met: recorder.lost === 0 && recorder.drainSeconds <= 5,
    },
    {
      metric: "Recorder: database bytes per million samples (sample tables and their indexes)",
      value: `${(recorder.bytesPerMillion / 1024 / 1024).toFixed(0)} MB`,
      target: "≤ 150 MB",
      met: recorder.bytesPerMillion / 1024 / 1024 <= 150,
    },
    {
      metric: "Recorder: whole database file and WAL per sample stored, × 1 million (events included)",
      value: `${(recorder.fileBytesPerMillion / 1024 / 1024).toFixed(0)} MB`,
      target: "",
      met: null,
    },
  );
  figures.recorder = recorder;
}

/** The replica failover gap (not in short mode: it starts PostgreSQL and two more servers, about a minute). */
async function addFailoverRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  console.log("failover: two replicas on one PostgreSQL, SIGKILL of the recording one…");
  const failover = await measureFailover();
  if ("skipped" in failover) console.log(`failover: skipped, ${failover.skipped}`);
  rows.push(...failoverRows(failover));
  figures.failover = failover;
}

/** The scale scenario under its churn, the production app, `--loads` first loads of the overview in Chromium. */
async function addFirstRowRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const stack = await startStack({ rollouts: P.rollouts, rate: P.rate });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    await sleep(3_000);
    const firstRow = await measureFirstRows(stack.app, num(args.loads, 10));
    rows.push(...firstRowRows(firstRow));
    figures.firstRow = firstRow;
    const otherPages = await measureOtherFirstLoads(stack.app, num(args.loads, 10));
    rows.push(...otherFirstLoadRows(otherPages));
    figures.firstContent = otherPages;
  } finally {
    await stack.stop();
  }
}

/**
 * `--only <part>`: one measurement alone, minutes instead of the whole run: the replica failover gap (two replicas on
 * PostgreSQL, the leader killed), the server's memory per watched Rollout, the overview's first load, the plugins
 * page's health report (cold and steady, with Prometheus).
 */
function detailPageRows(detail: { latency: Distribution; requests: number; changes: number }): Row[] {
  return [
    {
      metric: `Live: write → DOM on the rollout detail page p50/p95/p99 (n=${detail.latency.n})`,
      value: `${ms(detail.latency.p50)} / ${ms(detail.latency.p95)} / ${ms(detail.latency.p99)}`,
      target: "p95 ≤ 150 ms",
      met: detail.latency.p95 <= 150,
    },
    {
      metric: `Detail page: API requests per status change (${detail.requests} for ${detail.changes} weight changes)`,
      value: detail.changes ? (detail.requests / detail.changes).toFixed(2) : "not measured",
      target: "",
      met: null,
    },
  ];
}

/** `--only detail-page`: the whole fleet with Prometheus, then write → DOM on an open rollout detail page alone. */
async function addDetailPageRows(rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const stack = await startStack({ rollouts: P.rollouts, rate: P.rate, prometheus: true });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    await sleep(3_000);
    const detail = await measureDetailDomLatency(stack, Math.min(P.samples, 60));
    rows.push(...detailPageRows(detail));
    Object.assign(figures, { detail });
  } finally {
    await stack.stop();
  }
}

const ONLY_PARTS: Record<string, (rows: Row[], figures: Record<string, unknown>) => Promise<void>> = {
  "detail-page": addDetailPageRows,
  failover: addFailoverRows,
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
    curveTable = await addCostCurve(parseSizes(args.sizes), result);
  } else if (onlyPart) {
    await onlyPart(rows, result);
  } else {
    const total = P.clusters * P.rollouts;
    console.log(
      `bench: ${P.clusters} clusters × ${P.rollouts} Rollouts = ${total}, ${P.rate} weight changes/s${short ? " (short mode)" : ""}`,
    );
    if (!args["recorder-only"]) await measureMainStack(rows, result);
    await addRecorderRows(rows, result);
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
  if (short && args.only === undefined) {
    const recorder = result.recorder as { compared: number };
    const broken =
      [result.sseLat, result.floorLat, result.domLat, result.api, result.pluginHealth].some((d) => (d as Distribution).n === 0) ||
      recorder.compared === 0;
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
