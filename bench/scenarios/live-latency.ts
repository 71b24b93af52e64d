/**
 * Live latency, as the main stack and every size of the cost curve measure it: write → SSE and write → a bare
 * client-node watch (the floor) for the same status writes, and write → DOM on the overview for probe Rollouts
 * promoted one step at a time.
 */
import { KubeConfig, Watch } from "@kubernetes/client-node";
import { chromium } from "@playwright/test";
import type { SimulationHandle } from "../../sim/cluster";
import type { AppProcess } from "../../test/harness/app-process";
import { CHROMIUM_ARGS } from "../first-row";
import { recordLongTasks, traceBrowser, type LongTasks } from "../long-tasks";
import { sampled, sleep, type Sampled } from "../measure";
import { createProbes, rolloutsType, type BenchRun, type Stack } from "../stack";

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

/** Write → SSE and write → bare watch (the floor) for the same status writes, until `P.samples` arrived over SSE. */
export async function measureLiveLatency(run: BenchRun, stack: Stack): Promise<{ sseLat: Sampled; floorLat: Sampled }> {
  const { P } = run;
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
 * Write → DOM on the overview: the canary weight a row shows after each promote of five probes, while the whole
 * fleet churns; and the page's long tasks meanwhile.
 */
export async function measureDomLatency(run: BenchRun, stack: Stack, samples: number): Promise<Sampled & { longTasks: LongTasks }> {
  const { short } = run;
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
    // The trace starts first: starting V8's sampling profiler stops the page for a moment (it lists every function),
    // which is the trace's cost, not the page's.
    const stopTrace = await traceBrowser(browser, page, run.browserTraceDir, "overview");
    const readLongTasks = await recordLongTasks(page);
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
    await stopTrace();
    unsubscribe();
    const log = await page.evaluate(
      () => (window as unknown as { __benchLog: Array<{ key: string; text: string; at: number }> }).__benchLog,
    );
    const values: number[] = [];
    for (const w of writes) {
      const shown = log.find((l) => l.key === w.key && l.at >= w.at && new RegExp(`(^|\\D)${w.percent}\\s*%`).test(l.text));
      if (shown) values.push(shown.at - w.at);
    }
    return { ...sampled(values), longTasks: await readLongTasks() };
  } finally {
    await browser.close();
  }
}
