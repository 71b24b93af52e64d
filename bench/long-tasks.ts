/**
 * The page's long tasks: main-thread tasks of 50 ms or more, as Chromium's Long Tasks API reports them (what makes a
 * page stutter and a change show late). Issue 32's rule: none on a page under churn.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { ms, type Row } from "./measure";
import { findPageRendererThread, sampleThreads, threadTimeBetween, type ThreadSample } from "./thread-times";
import type { ServerStall } from "./stack";

export interface LongTasks {
  /** Tasks of 50 ms or more. */
  count: number;
  /** The longest task, in milliseconds (0 when there was none). */
  longestMs: number;
  /** Their summed time, in milliseconds. */
  totalMs: number;
  /**
   * The most time one long task spent on a CPU, the page's own work (see thread-times.ts): 0 when there was no
   * long task, null when the page's renderer thread was not found or not sampled over the task.
   */
  mostCpuMs: number | null;
  /** Each long task: its wall-clock time, and the renderer thread's time on a CPU and waiting for one meanwhile. */
  tasks: LongTask[];
}

export interface LongTask {
  /** When it started, epoch milliseconds. */
  startMs: number;
  durationMs: number;
  cpuMs: number | null;
  runQueueMs: number | null;
}

/**
 * Starts recording the page's long tasks now, and sampling its renderer thread's time on a CPU and in a run queue;
 * the returned function reads what was recorded since.
 */
export async function recordLongTasks(page: Page): Promise<() => Promise<LongTasks>> {
  const thread = await findPageRendererThread(page);
  if (!thread) console.warn("bench: the page's renderer thread was not found; its long tasks are not split into CPU and waits");
  const sampler = thread ? await sampleThreads([thread]) : null;
  await page.evaluate(() => {
    const tasks: Array<{ startMs: number; durationMs: number }> = [];
    (window as unknown as { __benchLongTasks: typeof tasks }).__benchLongTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push({ startMs: performance.timeOrigin + entry.startTime, durationMs: entry.duration });
    }).observe({ type: "longtask" });
  });
  return async () => {
    const recorded = await page.evaluate(
      () => (window as unknown as { __benchLongTasks: Array<{ startMs: number; durationMs: number }> }).__benchLongTasks,
    );
    const samples = sampler ? (await sampler.stop())[0] : [];
    return summarizeLongTasks(recorded, samples);
  };
}

/** The long tasks' figures, each split into time on a CPU and waiting for one from the renderer thread's samples. */
export function summarizeLongTasks(
  recorded: ReadonlyArray<{ startMs: number; durationMs: number }>,
  samples: readonly ThreadSample[],
): LongTasks {
  const tasks = recorded.map((task): LongTask => {
    const times = threadTimeBetween(samples, task.startMs, task.startMs + task.durationMs);
    return { ...task, cpuMs: times?.cpuMs ?? null, runQueueMs: times?.runQueueMs ?? null };
  });
  const cpu = tasks.map((t) => t.cpuMs);
  return {
    count: tasks.length,
    longestMs: tasks.reduce((a, t) => Math.max(a, t.durationMs), 0),
    totalMs: tasks.reduce((a, t) => a + t.durationMs, 0),
    mostCpuMs: cpu.some((c) => c === null) ? null : cpu.reduce<number>((a, c) => Math.max(a, c ?? 0), 0),
    tasks,
  };
}

/** A table row for a page's long tasks: issue 32's rule is none under churn. */
export function longTasksRow(page: string, longTasks: LongTasks | undefined): Row[] {
  const longest = longTasks?.tasks.reduce<LongTask | null>((a, t) => (a && a.durationMs >= t.durationMs ? a : t), null);
  return [
    {
      metric: `${page}: long tasks (≥ 50 ms) under churn — count; longest; summed`,
      value: longTasks
        ? `${longTasks.count}; ${longTasks.count ? ms(longTasks.longestMs) : "none"}; ${ms(longTasks.totalMs)}`
        : "not measured",
      target: "none",
      met: longTasks ? longTasks.count === 0 : false,
    },
    {
      metric: `${page}: the long tasks' own work — the most time one spent on a CPU; the longest's CPU / wait for a core`,
      value: !longTasks
        ? "not measured"
        : longTasks.count === 0
          ? "no long task"
          : `${longTasks.mostCpuMs === null ? "not measured" : ms(longTasks.mostCpuMs)}; ${
              longest?.cpuMs == null ? "not measured" : `${ms(longest.cpuMs)} / ${ms(longest.runQueueMs ?? 0)}`
            }`,
      target: "",
      met: null,
    },
  ];
}

/**
 * The table's rows for the server's stalls over a stretch of the run (see eventLoopStalls): the longest time the
 * server itself held its event loop, issue 32's "no server task over 50 ms", and the longest event-loop delay, which
 * adds the time its thread waited for a core the machine's other processes held.
 */
export function serverStallRows(stretch: string, stall: ServerStall): Row[] {
  return [
    {
      metric: `Server: longest hold of the event loop (on a CPU or blocked) ${stretch}`,
      value: Number.isFinite(stall.heldMs) ? ms(stall.heldMs) : "not measured",
      target: "≤ 50 ms",
      met: Number.isFinite(stall.heldMs) ? stall.heldMs <= 50 : false,
    },
    {
      metric: `Server: longest hold of the event loop ${stretch}, less its pool's and V8's threads' waits for a core`,
      value: Number.isFinite(stall.heldOwnMs) ? ms(stall.heldOwnMs) : "not measured",
      target: "",
      met: null,
    },
    {
      metric: `Server: longest event-loop stall (with waits for a core) ${stretch}`,
      value: Number.isFinite(stall.longestMs) ? ms(stall.longestMs) : "not measured",
      target: "",
      met: null,
    },
  ];
}

/** What a page's performance trace records: the main thread's tasks and V8's sampled JavaScript stacks. */
const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "disabled-by-default-v8.cpu_profiler",
  "blink.user_timing",
];

/**
 * Starts Chromium's performance trace of `page` when a trace folder was asked for (`--browser-trace DIR`); the returned
 * function stops it and writes `DIR/<name>.json` (open it in Chrome's Performance panel or Perfetto).
 */
export async function traceBrowser(browser: Browser, page: Page, dir: string | undefined, name: string): Promise<() => Promise<void>> {
  if (!dir) return async () => undefined;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  await browser.startTracing(page, { path: file, categories: TRACE_CATEGORIES });
  // Let the profiler's start-up pause pass before anything is measured.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  return async () => {
    await browser.stopTracing();
    console.log(`wrote the ${name} page's performance trace: ${file}`);
  };
}
