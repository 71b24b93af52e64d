/**
 * The stack every scenario measures: the simulator's `scale` scenario, a real Prometheus when asked for, and the
 * production app started as an operator would; and what the scenarios share to drive it and read it (the fleet
 * shown, probe Rollouts, the app's own counters, an API under load).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startSimulation, type SimulationHandle } from "../sim/cluster";
import { findResourceType } from "../sim/resources";
import { writeRollscopeConfig } from "../sim/rollscope-config";
import { startAppProcess, type AppProcess } from "../test/harness/app-process";
import { findFreePort } from "../test/harness/free-port";
import { sumOf } from "../test/harness/metrics-text";
import { startPrometheus, type PrometheusHandle } from "../test/harness/prometheus";
import { distribution, sleep, type Distribution } from "./measure";
import { helperThreads, sampleThreads, threadTimeBetween, type ThreadSample } from "./thread-times";

export const rolloutsType = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;

/** A run's sizes and durations, from its options (the results JSON's `params`). */
export interface BenchParams {
  clusters: number;
  rollouts: number;
  rate: number;
  churnSeconds: number;
  recorderRate: number;
  recorderSeconds: number;
  samples: number;
  apiSeconds: number;
  timeScale: number;
}

/** One run of the bench as run.ts reads it from the command line: what every scenario is given. */
export interface BenchRun {
  P: BenchParams;
  short: boolean;
  /** Rollouts with managedFields and kubectl's last-applied annotation, as a real cluster keeps them. */
  bookkeeping: boolean;
  /** `--only first-row`: how many first loads. */
  loads: number;
  /** `--only memory`: Rollouts per cluster of the baseline server. */
  baselineRollouts: number;
  /** `--only memory`: the path prefix of both servers' heap snapshots, when asked for. */
  heapSnapshot: string | undefined;
  /** `--browser-trace DIR`: Chromium performance traces of the overview and detail pages under churn, written there. */
  browserTraceDir: string | undefined;
  /** `--server-nice=N`: the server's nice value, set on all its threads (see bench/run.ts). */
  serverNice?: number;
  /** Writes a chart next to the results JSON. */
  writeChart(name: string, svg: string): void;
}

export interface Stack {
  sim: SimulationHandle;
  app: AppProcess;
  /** host:port of the app's own /metrics (ROLLSCOPE_METRICS_LISTEN): its CPU, event loop and watch counters. */
  metricsAddress: string;
  /** The event-loop probe's log of the server's long turns (bench/event-loop-probe.mjs; read by eventLoopStalls). */
  loopLog: string;
  dir: string;
  stop(): Promise<void>;
}

/** The probe the bench preloads into its server: how long each long turn of the event loop held it, and why. */
const LOOP_PROBE = path.join(import.meta.dirname, "event-loop-probe.mjs");

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

/** Sets the nice value of every thread of a process (the event loop's, V8's and libuv's): `renice -p` sets one thread's. */
function reniceThreads(pid: number, nice: number): void {
  const threads = readdirSync(`/proc/${pid}/task`);
  const result = spawnSync("renice", ["-n", String(nice), "-p", ...threads], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`renice of the server's threads failed: ${result.stderr.trim()}`);
  console.log(`server: nice ${nice} on its ${threads.length} threads`);
}

export async function startStack(
  run: BenchRun,
  opts: {
    clusters?: number;
    rollouts: number;
    rate: number;
    env?: Record<string, string>;
    prometheus?: boolean;
  },
): Promise<Stack & { prometheus?: PrometheusHandle }> {
  const { P, short } = run;
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-bench-"));
  const sim = await startSimulation({
    scenario: "scale",
    scale: {
      clusters: opts.clusters ?? P.clusters,
      rolloutsPerCluster: opts.rollouts,
      changesPerSecond: opts.rate,
      seed: 1,
      bookkeeping: run.bookkeeping,
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
  const metricsAddress = `127.0.0.1:${await findFreePort()}`;
  const loopLog = path.join(dir, "event-loop.log");
  // Used once /api/readyz says ready, as a load balancer would: after the server's start-up warm-up.
  const app = await startAppProcess({
    kubeconfigPath: sim.kubeconfigPath,
    databaseUrl: `file:${path.join(dir, "rollscope.db")}`,
    env: {
      ROLLSCOPE_CONFIG: configPath,
      ROLLSCOPE_MAX_HEAP_MB: String(heapCapMb((opts.clusters ?? P.clusters) * opts.rollouts)),
      ROLLSCOPE_METRICS_LISTEN: metricsAddress,
      ROLLSCOPE_NODE_FLAGS: [process.env.ROLLSCOPE_NODE_FLAGS, `--import=${LOOP_PROBE}`].filter(Boolean).join(" "),
      ROLLSCOPE_BENCH_LOOP_LOG: loopLog,
      ...opts.env,
    },
    readyPath: "/api/readyz",
  });
  if (run.serverNice !== undefined) reniceThreads(app.pid()!, run.serverNice);
  return {
    sim,
    app,
    metricsAddress,
    loopLog,
    dir,
    prometheus,
    async stop() {
      await app.stop();
      await prometheus?.stop();
      await sim.stop();
    },
  };
}

export async function waitForFleet(app: AppProcess, expected: number): Promise<void> {
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

/** Probe Rollouts that move one step per promote, shown alone on the overview through its text filter. */
export async function createProbes(sim: SimulationHandle, count: number, prefix = "bench-probe"): Promise<string[]> {
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

export async function measureApi(url: string, seconds: number, connections = 10): Promise<Distribution & { errors: number }> {
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

/** The stretches being measured, per app: every read of its /metrics (which resets the delay histogram) folds into each. */
const openStretches = new Map<string, Set<{ lagMaxSeconds: number }>>();

/** The app's own counters from its /metrics: CPU seconds, event-loop lag, the Rollout changes its watches delivered. */
export async function readAppCounters(address: string): Promise<{
  cpuSeconds: number;
  lagP99Seconds: number;
  /** The longest event-loop delay since the previous read of /metrics (prom-client resets it on each read). */
  lagMaxSeconds: number;
  rolloutWatchEvents: number;
  relists: number;
  /** Plugin health reports computed so far: how many, and the seconds summed per part (metrics, records, report). */
  pluginHealthReports: number;
  pluginHealthSeconds: { metrics: number; records: number; report: number };
  /** Garbage collections of 50 ms or more so far, by kind (major, minor, incremental, weakcb). */
  gcPausesOver50ms: Record<string, number>;
  /** Queries the app sent to Prometheus so far, and the seconds they took summed. */
  prometheusQueries: number;
  prometheusQuerySeconds: number;
}> {
  const text = await (await fetch(`http://${address}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  const lagMaxSeconds = value("nodejs_eventloop_lag_max_seconds");
  for (const stretch of openStretches.get(address) ?? []) stretch.lagMaxSeconds = Math.max(stretch.lagMaxSeconds, lagMaxSeconds);
  return {
    cpuSeconds: value("process_cpu_seconds_total"),
    lagP99Seconds: value("nodejs_eventloop_lag_p99_seconds"),
    lagMaxSeconds,
    rolloutWatchEvents: sumOf(text, "rollscope_watch_events_total", { kind: "rollouts" }),
    relists: sumOf(text, "rollscope_watch_relists_total"),
    pluginHealthReports: sumOf(text, "rollscope_plugin_health_compute_seconds_count", { part: "report" }),
    pluginHealthSeconds: {
      metrics: sumOf(text, "rollscope_plugin_health_compute_seconds_sum", { part: "metrics" }),
      records: sumOf(text, "rollscope_plugin_health_compute_seconds_sum", { part: "records" }),
      report: sumOf(text, "rollscope_plugin_health_compute_seconds_sum", { part: "report" }),
    },
    gcPausesOver50ms: Object.fromEntries(
      ["major", "minor", "incremental", "weakcb"].map((kind) => [
        kind,
        sumOf(text, "nodejs_gc_duration_seconds_count", { kind }) - sumOf(text, "nodejs_gc_duration_seconds_bucket", { kind, le: "0.05" }),
      ]),
    ),
    prometheusQueries: sumOf(text, "rollscope_prometheus_query_duration_seconds_count"),
    prometheusQuerySeconds: sumOf(text, "rollscope_prometheus_query_duration_seconds_sum"),
  };
}

/**
 * What a Prometheus has done so far, from its own /metrics: its CPU, and its query engine's time per slice (queue_time is
 * the wait for one of its concurrent query slots, prepare_time the selection of the series and their samples,
 * inner_eval the evaluation) with the number of queries.
 */
export async function readPrometheusEngine(
  url: string,
): Promise<{ cpuSeconds: number; queries: number; queueSeconds: number; prepareSeconds: number; evalSeconds: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const slice = (name: string) => sumOf(text, "prometheus_engine_query_duration_seconds_sum", { slice: name });
  return {
    cpuSeconds: sumOf(text, "process_cpu_seconds_total"),
    queries: sumOf(text, "prometheus_engine_query_duration_seconds_count", { slice: "inner_eval" }),
    queueSeconds: slice("queue_time"),
    prepareSeconds: slice("prepare_time"),
    evalSeconds: slice("inner_eval"),
  };
}

/** One long turn of the server's event loop, as the probe logged it (milliseconds; `start` on CLOCK_MONOTONIC). */
export interface LoopTurn {
  start: number;
  gap: number;
  /** The main thread's time on a CPU and waiting in a run queue for one. */
  cpu: number;
  runQueue: number;
  /** The loop's time in its wait for I/O (libuv's idle time): asleep until a timer is due, or woken late. */
  idle: number;
  /** The server's other threads' CPU time meanwhile. */
  otherThreads: number;
}

/** The turns the probe logged that began in [fromMs, toMs] (none when there is no log: off Linux, or no probe). */
export function readLoopTurns(file: string, fromMs: number, toMs: number): LoopTurn[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line) => line.split(" ").map(Number))
    .filter((f) => f.length === 6 && f.every(Number.isFinite))
    .map(([start, gap, cpu, runQueue, idle, otherThreads]) => ({ start, gap, cpu, runQueue, idle, otherThreads }))
    .filter((turn) => turn.start >= fromMs && turn.start <= toMs);
}

/**
 * How long the server itself held its event loop in a turn: on a CPU or blocked in a call, at most. Neither the wait
 * for a core (the run queue) nor the loop's wait for I/O (its idle time, which includes a late wake-up) counts; the two
 * may overlap (a thread woken in its I/O wait may then wait for a core), so each is taken off alone and the smaller
 * result kept.
 */
export const heldMs = (turn: LoopTurn) => Math.max(0, Math.min(turn.gap - turn.runQueue, turn.gap - turn.idle));

/**
 * A turn's hold less the part of its blocked time a helper thread of the server (libuv's pool, V8's platform workers)
 * spent waiting for a core meanwhile (`helperWaitMs`, the longest one thread waited): the event loop blocks in glibc's
 * `pthread_cond_signal` until the helpers it woke before have run (perf trace; BENCHMARKS.md), so that part is the
 * machine's wait for a core, one thread removed. Never less than the turn's time on a CPU.
 */
export function heldOwnMs(turn: LoopTurn, helperWaitMs: number): number {
  const held = heldMs(turn);
  return held - Math.min(Math.max(0, held - turn.cpu), helperWaitMs);
}

/** A stretch's stalls: the longest event-loop delay, and the longest the server itself held the loop. */
export interface ServerStall {
  /** The longest event-loop delay (the app's /metrics), in milliseconds; NaN when it could not be read. */
  longestMs: number;
  /**
   * The longest time the server's own work held the loop (the probe's turns: the delay less the time the thread was
   * ready but the machine's two cores ran Chromium, the simulator or Prometheus); NaN without the probe's log.
   */
  heldMs: number;
  /**
   * The longest hold less the blocked time one of the server's helper threads waited for a core (see heldOwnMs); NaN
   * without the probe's log or the helpers' samples.
   */
  heldOwnMs: number;
}

const describeTurn = (t: LoopTurn) =>
  `${Math.round(t.gap)} ms: on a CPU ${Math.round(t.cpu)}, waiting for a core ${Math.round(t.runQueue)}, blocked ${Math.round(
    Math.max(0, t.gap - t.cpu - t.runQueue),
  )} (in the wait for I/O ${Math.round(t.idle)}); the server's other threads ${Math.round(t.otherThreads)} ms of CPU meanwhile`;

/**
 * The server's stalls over a stretch of the run. `start()` reads /metrics (which resets the event-loop delay
 * histogram), `stop()` reads it again: the longest delay since, in milliseconds. Other reads of /metrics meanwhile (a
 * scenario's counters) fold into the stretch, so none hides a stall. The histogram samples every 10 ms, so a stall
 * reads within about 10 ms of its length.
 *
 * A delay is not all the server's doing: on this 2-core machine its thread is often ready while Chromium, the simulator
 * and Prometheus hold both cores (in one run's longest stall, 111 ms, the thread ran 8 ms and waited 102 ms for a
 * core). So `stop()` also reads the turns the probe logged in the stretch (`loopLog`, see bench/event-loop-probe.mjs)
 * and returns the longest the server itself held the loop, on a CPU or blocked in a call (see heldMs): issue 32's "no
 * server task that holds the event loop for more than 50 ms". It prints both turns, the garbage collections of 50 ms or more, and when the
 * stretch ran on CLOCK_MONOTONIC, to find it in a CPU profile (`--cpu-prof`, the same clock).
 */
export function eventLoopStalls(
  address: string,
  loopLog?: string,
  serverPid?: number,
): { start(): Promise<void>; stop(label: string): Promise<ServerStall> } {
  let stretch: { lagMaxSeconds: number } | null = null;
  let helpers: { stop(): Promise<ThreadSample[][]> } | null = null;
  let gcBefore: Record<string, number> | null = null;
  // CLOCK_MONOTONIC, the clock of a CPU profile's timestamps (`--cpu-prof`) and of the probe's log.
  const monotonicMs = () => Number(process.hrtime.bigint() / 1_000n) / 1000;
  let startedAt = 0;
  const stretches = () => openStretches.get(address) ?? openStretches.set(address, new Set()).get(address)!;
  return {
    async start() {
      const counters = await readAppCounters(address).catch(() => null);
      gcBefore = counters?.gcPausesOver50ms ?? null;
      stretch = { lagMaxSeconds: 0 };
      stretches().add(stretch);
      // The server's helper threads, sampled from here (not from the server, whose loop is what is measured).
      const threads = loopLog && serverPid !== undefined ? helperThreads(serverPid) : [];
      helpers = threads.length ? await sampleThreads(threads, { clock: "monotonic", intervalMs: 5 }) : null;
      startedAt = monotonicMs();
    },
    async stop(label) {
      const counters = await readAppCounters(address).catch(() => null);
      const stoppedAt = monotonicMs();
      const helperSamples = helpers ? await helpers.stop() : null;
      helpers = null;
      const measured = stretch;
      if (measured) stretches().delete(measured);
      stretch = null;
      if (!counters || !measured) return { longestMs: Number.NaN, heldMs: Number.NaN, heldOwnMs: Number.NaN };
      const turns = loopLog ? readLoopTurns(loopLog, startedAt, stoppedAt) : [];
      const longest = turns.reduce<LoopTurn | null>((a, t) => (a && a.gap >= t.gap ? a : t), null);
      const held = turns.reduce<LoopTurn | null>((a, t) => (a && heldMs(a) >= heldMs(t) ? a : t), null);
      const longestMs = measured.lagMaxSeconds * 1000;
      // No logged turn (all shorter than the probe's 20 ms) is a hold under 20 ms; no log at all is not measured.
      const heldLongestMs = loopLog && existsSync(loopLog) ? (held ? heldMs(held) : 0) : Number.NaN;
      // The longest one helper thread waited for a core during a turn.
      const helperWait = (t: LoopTurn) =>
        (helperSamples ?? []).reduce(
          (most, samples) => Math.max(most, threadTimeBetween(samples, t.start, t.start + t.gap)?.runQueueMs ?? 0),
          0,
        );
      const own = turns.reduce<{ turn: LoopTurn; ownMs: number; waitMs: number } | null>((a, turn) => {
        const waitMs = helperWait(turn);
        const ownMs = heldOwnMs(turn, waitMs);
        return a && a.ownMs >= ownMs ? a : { turn, ownMs, waitMs };
      }, null);
      const heldOwnLongestMs = Number.isFinite(heldLongestMs) && helperSamples ? (own?.ownMs ?? 0) : Number.NaN;
      if (gcBefore) {
        const before = gcBefore;
        const pauses = Object.entries(counters.gcPausesOver50ms)
          .map(([kind, n]) => [kind, n - (before[kind] ?? 0)] as const)
          .filter(([, n]) => n > 0);
        const text = pauses.length ? pauses.map(([kind, n]) => `${n} ${kind}`).join(", ") : "none";
        const span = `monotonic clock ${(startedAt / 1000).toFixed(1)}–${(stoppedAt / 1000).toFixed(1)} s`;
        console.log(`server ${label}: longest stall ${Math.round(longestMs)} ms; GC pauses ≥ 50 ms: ${text} (${span})`);
        if (longest) console.log(`  its longest turn: ${describeTurn(longest)}`);
        if (held) console.log(`  the longest the server held the loop: ${Math.round(heldMs(held))} ms, a turn of ${describeTurn(held)}`);
        if (own && helperSamples)
          console.log(
            `  less the waits of its pool and V8 threads for a core: ${Math.round(own.ownMs)} ms at the longest ` +
              `(a pool or V8 thread waited ${Math.round(own.waitMs)} ms for a core), a turn of ${describeTurn(own.turn)}`,
          );
      }
      return { longestMs, heldMs: heldLongestMs, heldOwnMs: heldOwnLongestMs };
    },
  };
}
