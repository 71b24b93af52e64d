/**
 * The page's long tasks: main-thread tasks of 50 ms or more, as Chromium's Long Tasks API reports them (what makes a
 * page stutter and a change show late). Issue 32's rule: none on a page under churn.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { ms, type Row } from "./measure";
import type { ServerStall } from "./stack";

export interface LongTasks {
  /** Tasks of 50 ms or more. */
  count: number;
  /** The longest task, in milliseconds (0 when there was none). */
  longestMs: number;
  /** Their summed time, in milliseconds. */
  totalMs: number;
}

/** Starts recording the page's long tasks now; the returned function reads what was recorded since. */
export async function recordLongTasks(page: Page): Promise<() => Promise<LongTasks>> {
  await page.evaluate(() => {
    const durations: number[] = [];
    (window as unknown as { __benchLongTasks: number[] }).__benchLongTasks = durations;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) durations.push(entry.duration);
    }).observe({ type: "longtask" });
  });
  return async () => {
    const durations = await page.evaluate(() => (window as unknown as { __benchLongTasks: number[] }).__benchLongTasks);
    return {
      count: durations.length,
      longestMs: durations.reduce((a, b) => Math.max(a, b), 0),
      totalMs: durations.reduce((a, b) => a + b, 0),
    };
  };
}

/** A table row for a page's long tasks: issue 32's rule is none under churn. */
export function longTasksRow(page: string, longTasks: LongTasks | undefined): Row {
  return {
    metric: `${page}: long tasks (≥ 50 ms) under churn — count; longest; summed`,
    value: longTasks
      ? `${longTasks.count}; ${longTasks.count ? ms(longTasks.longestMs) : "none"}; ${ms(longTasks.totalMs)}`
      : "not measured",
    target: "none",
    met: longTasks ? longTasks.count === 0 : false,
  };
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
