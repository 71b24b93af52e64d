import { findFreePort } from "../../test/harness/free-port";
import { readHeapAfterGc } from "../inspector-heap";
import { mb, readTreeRss, sleep, type Row } from "../measure";
import { startStack, waitForFleet, type BenchRun, type Stack } from "../stack";

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
async function startMemoryStack(
  run: BenchRun,
  rollouts: number,
  rate: number,
): Promise<{ stack: Stack; metricsAt: string; inspectorPort: number }> {
  const metricsAt = `127.0.0.1:${await findFreePort()}`;
  const inspectorPort = await findFreePort();
  const env = {
    ROLLSCOPE_METRICS_LISTEN: metricsAt,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --inspect=127.0.0.1:${inspectorPort}`.trim(),
  };
  return { stack: await startStack(run, { rollouts, rate, env }), metricsAt, inspectorPort };
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
const snapshotPath = (run: BenchRun, server: "baseline" | "warm") =>
  run.heapSnapshot ? `${run.heapSnapshot}-${server}.heapsnapshot` : undefined;

const perRollout = (warm: number, baseline: number, added: number) => `${((warm - baseline) / added / 1024).toFixed(1)} KiB`;

/**
 * `--only memory`: the server's memory with an empty fleet (the same clusters, no Rollouts: the fixed costs such as
 * compiled code; `--baseline-rollouts N` per cluster instead, so both servers ran the same code) and with the whole fleet, without the browser, Prometheus or the API load of the main stack (so its
 * rows compare runs of the same option, not with the main run's). Both servers answer the same requests first, so
 * they compiled the same code. The target is on the heap kept alive after full collections (asked for over the
 * inspector the bench starts them with); RSS also holds garbage not yet collected, so its difference is noisy.
 */
export async function addMemoryRows(run: BenchRun, rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const { P, baselineRollouts } = run;
  const total = P.clusters * P.rollouts;
  const added = total - P.clusters * baselineRollouts;
  const base = await startMemoryStack(run, baselineRollouts, baselineRollouts > 0 ? P.rate : 0);
  let baseline: MemoryFigures;
  try {
    await waitForFleet(base.stack.app, P.clusters * baselineRollouts);
    await sleep(3_000);
    baseline = await readMemory(base.stack, base.metricsAt, base.inspectorPort, snapshotPath(run, "baseline"));
  } finally {
    await base.stack.stop();
  }
  const full = await startMemoryStack(run, P.rollouts, P.rate);
  try {
    await waitForFleet(full.stack.app, total);
    await sleep(3_000);
    const warm = await readMemory(full.stack, full.metricsAt, full.inspectorPort, snapshotPath(run, "warm"));
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
      memory: { baselineRollouts: P.clusters * baselineRollouts, baseline, warm, churn, bookkeeping: run.bookkeeping },
    });
  } finally {
    await full.stack.stop();
  }
}
