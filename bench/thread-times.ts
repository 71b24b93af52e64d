/**
 * Threads measured from outside their process. Linux counts, per thread, the time it ran on a CPU and the time it
 * waited in a run queue for one (`/proc/<pid>/task/<tid>/schedstat`); sampled every few milliseconds they split a
 * stretch of wall-clock time into a thread's own work and its wait for a core, which on this 2-core machine (the
 * server, Chromium, the simulator and Prometheus on two cores) is often most of it:
 * - a page's long task (the Long Tasks API gives its wall-clock duration) on the page's renderer thread;
 * - a long turn of the server's event loop in which the main thread was blocked signalling a thread of libuv's pool or
 *   V8's platform that it had woken earlier and that waited for a core (glibc's condition variables make a signaller
 *   wait for the waiters it woke before to run; see BENCHMARKS.md).
 */
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { Page } from "@playwright/test";

export interface ThreadRef {
  pid: number;
  tid: number;
}

/** A thread's counters at an instant (epoch milliseconds): its time on a CPU and in a run queue, in milliseconds. */
export interface ThreadSample {
  atMs: number;
  cpuMs: number;
  runQueueMs: number;
}

/** A thread's time on a CPU and waiting for one so far, in milliseconds; null once the thread is gone (or off Linux). */
export function readThreadTimes({ pid, tid }: ThreadRef): { cpuMs: number; runQueueMs: number } | null {
  try {
    const [onCpu, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
    return { cpuMs: Number(onCpu) / 1e6, runQueueMs: Number(waiting) / 1e6 };
  } catch {
    return null;
  }
}

/** The numbered entries of a /proc directory whose `comm` (a process's or a thread's name) matches; [] when unreadable. */
function procEntriesNamed(dir: string, name: RegExp): number[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    try {
      return name.test(readFileSync(`${dir}/${entry}/comm`, "utf8").trim()) ? [Number(entry)] : [];
    } catch {
      return []; // the process or thread ended meanwhile
    }
  });
}

/** The main thread of every process on the machine whose name (Linux's 15-character `comm`) matches. */
function findMainThreads(name: RegExp): ThreadRef[] {
  return procEntriesNamed("/proc", name).map((pid) => ({ pid, tid: pid }));
}

/**
 * The page's renderer thread (a renderer process's main thread runs the page's JavaScript, layout and paint): of
 * Chromium's processes (a browser, a GPU and network process, a renderer per site, spare ones; Chromium does not name
 * their main threads apart), the one whose main thread runs a busy loop the page is asked to run. Null when none took
 * most of the loop's time on a CPU.
 */
export async function findPageRendererThread(page: Page): Promise<ThreadRef | null> {
  const BUSY_MS = 80;
  const candidates = findMainThreads(/^chrom/);
  const before = candidates.map(readThreadTimes);
  await page.evaluate((busyMs) => {
    const until = performance.now() + busyMs;
    while (performance.now() < until);
  }, BUSY_MS);
  let found: { thread: ThreadRef; cpuMs: number } | null = null;
  for (const [i, thread] of candidates.entries()) {
    const [start, end] = [before[i], readThreadTimes(thread)];
    if (start && end && (!found || end.cpuMs - start.cpuMs > found.cpuMs)) found = { thread, cpuMs: end.cpuMs - start.cpuMs };
  }
  // The loop ran BUSY_MS of wall-clock time; a loaded machine gives it less of a CPU, but not less than a third.
  return found && found.cpuMs >= BUSY_MS / 3 ? found.thread : null;
}

/**
 * The sampler's code, run on a worker thread (the bench's own event loop, which runs the simulator, can stall): every
 * `intervalMs`, each thread's counters, on the epoch clock (a page's `performance.timeOrigin`) or CLOCK_MONOTONIC (the
 * server probe's log).
 */
const SAMPLER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { readFileSync } = require("node:fs");
const { performance } = require("node:perf_hooks");
const files = workerData.threads.map((t) => "/proc/" + t.pid + "/task/" + t.tid + "/schedstat");
const samples = files.map(() => []);
const now = workerData.clock === "monotonic"
  ? () => Number(process.hrtime.bigint()) / 1e6
  : () => performance.timeOrigin + performance.now();
const sample = () => {
  const atMs = now();
  files.forEach((file, i) => {
    try {
      const [onCpu, waiting] = readFileSync(file, "utf8").split(" ");
      samples[i].push({ atMs, cpuMs: Number(onCpu) / 1e6, runQueueMs: Number(waiting) / 1e6 });
    } catch {}
  });
};
sample();
const timer = setInterval(sample, workerData.intervalMs);
parentPort.postMessage("sampling");
parentPort.on("message", () => {
  clearInterval(timer);
  sample();
  parentPort.postMessage(samples);
  parentPort.close();
});
`;

/**
 * Samples threads' counters every `intervalMs` from the moment it resolves until stopped; `stop` gives each thread's
 * samples (in the order of `threads`), in time order. A thread that ends has no samples after its end.
 */
export async function sampleThreads(
  threads: readonly ThreadRef[],
  { intervalMs = 4, clock = "epoch" }: { intervalMs?: number; clock?: "epoch" | "monotonic" } = {},
): Promise<{ stop(): Promise<ThreadSample[][]> }> {
  const worker = new Worker(SAMPLER_SOURCE, { eval: true, workerData: { threads, intervalMs, clock } });
  const failed = new Promise<never>((_, reject) => worker.once("error", reject));
  failed.catch(() => undefined); // read by the awaits below
  const message = () => Promise.race([once(worker, "message").then(([data]: unknown[]) => data), failed]);
  await message(); // the first samples are taken
  return {
    async stop() {
      const answer = message();
      worker.postMessage("stop");
      const taken = (await answer) as ThreadSample[][];
      await worker.terminate();
      return taken;
    },
  };
}

/**
 * The threads a process's event loop hands work to by signalling a condition variable: libuv's pool (file reads, gzip,
 * DNS) and V8's platform workers (garbage collection, compilation). Node names them `libuv-worker` and `V8Worker`.
 */
export function helperThreads(pid: number): ThreadRef[] {
  return procEntriesNamed(`/proc/${pid}/task`, /^(libuv-worker|V8Worker)$/).map((tid) => ({ pid, tid }));
}

/**
 * The thread's time on a CPU and waiting for one between two instants (epoch milliseconds), from the samples; null
 * when the samples do not cover the stretch. Each end is interpolated between the samples around it (found by binary
 * search: the bench asks this for every long turn and every helper thread of a stretch), so a figure is good to about
 * the sampling interval.
 */
export function threadTimeBetween(
  samples: readonly ThreadSample[],
  fromMs: number,
  toMs: number,
): { cpuMs: number; runQueueMs: number } | null {
  const [start, end] = [countersAt(samples, fromMs), countersAt(samples, toMs)];
  if (!start || !end) return null;
  return { cpuMs: Math.max(0, end.cpuMs - start.cpuMs), runQueueMs: Math.max(0, end.runQueueMs - start.runQueueMs) };
}

/** Both counters at an instant, interpolated between the samples around it; null outside the samples. */
function countersAt(samples: readonly ThreadSample[], atMs: number): { cpuMs: number; runQueueMs: number } | null {
  if (samples.length === 0 || atMs < samples[0].atMs || atMs > samples[samples.length - 1].atMs) return null;
  // The first sample at or after the instant (past the first one).
  let [lo, hi] = [1, samples.length - 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (samples[mid].atMs < atMs) lo = mid + 1;
    else hi = mid;
  }
  const [a, b] = [samples[Math.max(0, lo - 1)], samples[lo] ?? samples[0]];
  const span = b.atMs - a.atMs;
  const at = (field: "cpuMs" | "runQueueMs") => (span > 0 ? a[field] + ((b[field] - a[field]) * (atMs - a.atMs)) / span : b[field]);
  return { cpuMs: at("cpuMs"), runQueueMs: at("runQueueMs") };
}
