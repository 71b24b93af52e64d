/**
 * `--only detail-page`, and the main stack's detail-page rows: write → DOM on an open rollout detail page, and the API
 * requests the page makes meanwhile.
 */
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS } from "../first-row";
import { longTasksRow, recordLongTasks, traceBrowser, serverStallRows, type LongTasks } from "../long-tasks";
import { distribution, ms, sleep, type Distribution, type Row } from "../measure";
import { createProbes, eventLoopStalls, rolloutsType, startStack, waitForFleet, type BenchRun, type Stack } from "../stack";

/**
 * Write → DOM on an open rollout detail page, whose live view the stream writes into the page (no request): the
 * applied weight shown after each promote of one probe, and how many API requests the page made meanwhile (the
 * records refresh at most every 5 s when a recorded field changes; history, measured traffic and readiness poll).
 */
export async function measureDetailDomLatency(run: BenchRun, stack: Stack, samples: number): Promise<DetailPageFigures> {
  const { short } = run;
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
    // The trace starts first: starting V8's sampling profiler stops the page for a moment (it lists every function),
    // which is the trace's cost, not the page's.
    const stopTrace = await traceBrowser(browser, page, run.browserTraceDir, "detail");
    const readLongTasks = await recordLongTasks(page);
    const writes: Array<{ percent: number; at: number }> = [];
    const unsubscribe = c.controller.transitions.subscribe((e) => {
      if (e.namespace === "bench" && e.name === name && e.canaryWeight !== null) writes.push({ percent: e.canaryWeight, at: Date.now() });
    });
    for (let i = 0; i < samples; i++) {
      c.store.patch(rolloutsType, "bench", name, "merge", { status: { pauseConditions: null } }, { subresource: "status" });
      await sleep(short ? 300 : 400);
    }
    await sleep(2_000);
    await stopTrace();
    unsubscribe();
    const log = await page.evaluate(() => (window as unknown as { __benchLog: Array<{ value: string; at: number }> }).__benchLog);
    const values: number[] = [];
    for (const w of writes) {
      const shown = log.find((l) => l.at >= w.at && Number(l.value) === w.percent);
      if (shown) values.push(shown.at - w.at);
    }
    return { latency: distribution(values), requests, changes: writes.length, longTasks: await readLongTasks() };
  } finally {
    await browser.close();
  }
}

export interface DetailPageFigures {
  latency: Distribution;
  requests: number;
  changes: number;
  /** The page's long tasks while the probe's changes arrived (undefined when the measurement failed). */
  longTasks?: LongTasks;
}

export function detailPageRows(detail: DetailPageFigures): Row[] {
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
    ...longTasksRow("Detail page", detail.longTasks),
  ];
}

/** `--only detail-page`: the whole fleet with Prometheus, then write → DOM on an open rollout detail page alone. */
export async function addDetailPageRows(run: BenchRun, rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const { P } = run;
  const stack = await startStack(run, { rollouts: P.rollouts, rate: P.rate, prometheus: true });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    await sleep(3_000);
    const stalls = eventLoopStalls(stack.metricsAddress, stack.loopLog, stack.app.pid());
    await stalls.start();
    const detail = await measureDetailDomLatency(run, stack, Math.min(P.samples, 60));
    const stall = await stalls.stop("while the detail page took changes");
    rows.push(...detailPageRows(detail), ...serverStallRows("while the detail page took changes", stall));
    Object.assign(figures, {
      detail,
      serverStalls: { pages: stall.longestMs },
      serverHeld: { pages: stall.heldMs },
      serverHeldOwn: { pages: stall.heldOwnMs },
    });
  } finally {
    await stack.stop();
  }
}
