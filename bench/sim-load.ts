/**
 * The simulator alone at fleet scale: `npx tsx bench/sim-load.ts --clusters 50 --rollouts 400 --churn-seconds 60`
 * starts the `scale` scenario in this process, with the load the bench puts on it from outside (per cluster the
 * dashboard's five watches and a /metrics scrape every 5 s, each drained without parsing), and reports how long the
 * fleet takes to settle, its memory and the share of a core it takes during the churn. Add `node --cpu-prof`
 * (`node --cpu-prof --import tsx bench/sim-load.ts …`) to profile it.
 */
import { request } from "node:http";
import { parseArgs } from "node:util";
import { startSimulation, type SimulatedCluster } from "../sim/cluster";
import { T } from "../sim/controller/resource-types";
import { sleep } from "./measure";

const { values: args } = parseArgs({
  options: {
    clusters: { type: "string", default: "50" },
    rollouts: { type: "string", default: "400" },
    rate: { type: "string", default: "50" },
    "churn-seconds": { type: "string", default: "60" },
    "settle-seconds": { type: "string", default: "600" },
    /** With `node --expose-gc`: the heap after a full GC, and what dropping the watch history and the metrics frees. */
    breakdown: { type: "boolean", default: false },
  },
});
const clusters = Number(args.clusters);
const perCluster = Number(args.rollouts);
const total = clusters * perCluster;

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** GETs a path as the dashboard would and throws the bytes away; returns a stop function for streams. */
function drain(url: string, token: string): () => void {
  const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => res.resume());
  req.on("error", () => undefined);
  req.end();
  return () => req.destroy();
}

/** The dashboard's watches on one cluster (lib/fleet/cluster-watcher.ts), from now on. */
function watchLikeTheApp(c: SimulatedCluster, token: string): () => void {
  const rv = c.store.resourceVersion;
  const paths = [
    "/apis/argoproj.io/v1alpha1/rollouts",
    "/api/v1/events?fieldSelector=involvedObject.kind%3DRollout",
    "/apis/argoproj.io/v1alpha1/analysisruns",
    "/api/v1/namespaces/argo-rollouts/configmaps?fieldSelector=metadata.name%3Dargo-rollouts-config",
    "/api/v1/namespaces/argo-rollouts/pods",
  ];
  const stops = paths.map((p) =>
    drain(`${c.url}${p}${p.includes("?") ? "&" : "?"}watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`, token),
  );
  return () => stops.forEach((s) => s());
}

function healthyCount(cs: SimulatedCluster[]): number {
  let n = 0;
  for (const c of cs)
    for (const ro of c.store.list(T.rollouts).items) if ((ro.status as { phase?: string } | undefined)?.phase === "Healthy") n++;
  return n;
}

/** Objects per resource type over all clusters, with their JSON size: what the simulator holds. */
function census(cs: SimulatedCluster[]): Record<string, { count: number; jsonMiB: number }> {
  const out: Record<string, { count: number; jsonMiB: number }> = {};
  for (const type of Object.values(T)) {
    let count = 0;
    let bytes = 0;
    for (const c of cs) {
      for (const obj of c.store.list(type).items) {
        count++;
        bytes += JSON.stringify(obj).length;
      }
    }
    out[type.plural] = { count, jsonMiB: Number((bytes / 1024 / 1024).toFixed(1)) };
  }
  return out;
}

/** Heap after a full GC, then what the watch history and the controllers' metrics hold (each dropped in turn). */
function heapBreakdown(cs: SimulatedCluster[]): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("--breakdown needs node --expose-gc");
  const live = () => (gc(), process.memoryUsage().heapUsed);
  const all = live();
  for (const c of cs) c.store.compact();
  const withoutHistory = live();
  for (const c of cs) for (const m of c.controller.metrics.registry.getMetricsAsArray()) (m as { reset?: () => void }).reset?.();
  const withoutMetrics = live();
  console.log(
    `heap after GC ${mib(all)}: watch history ${mib(all - withoutHistory)}, metric series ${mib(withoutHistory - withoutMetrics)}, the rest ${mib(withoutMetrics)}`,
  );
}

/** CPU share of one core and memory since the last call. */
function sampler() {
  let lastCpu = process.cpuUsage();
  let lastAt = performance.now();
  return () => {
    const cpu = process.cpuUsage(lastCpu);
    const at = performance.now();
    const share = (cpu.user + cpu.system) / 1000 / (at - lastAt);
    lastCpu = process.cpuUsage();
    lastAt = at;
    const m = process.memoryUsage();
    return { share, cpuSeconds: (cpu.user + cpu.system) / 1e6, rss: m.rss, heapUsed: m.heapUsed };
  };
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const sim = await startSimulation({
    scenario: "scale",
    scale: { clusters, rolloutsPerCluster: perCluster, changesPerSecond: Number(args.rate), seed: 1 },
    timeScale: 60,
    seed: 1,
  });
  const startedS = (performance.now() - t0) / 1000;
  console.log(
    `sim-load: ${clusters} × ${perCluster} = ${total} Rollouts, started in ${startedS.toFixed(1)} s, ${mib(process.memoryUsage().rss)} RSS`,
  );
  const token = sim.users.rollscope.token;
  const stopWatches = sim.clusters.map((c) => watchLikeTheApp(c, token));
  const scrape = setInterval(() => sim.clusters.forEach((c) => drain(c.metricsUrl, token)), 5_000);

  const sample = sampler();
  const settleDeadline = performance.now() + Number(args["settle-seconds"]) * 1000;
  let healthy = 0;
  while (performance.now() < settleDeadline) {
    await sleep(10_000);
    healthy = healthyCount(sim.clusters);
    const s = sample();
    console.log(
      `  +${((performance.now() - t0) / 1000).toFixed(0)} s: ${healthy} Healthy, CPU ${(s.share * 100).toFixed(0)} %, RSS ${mib(s.rss)}, heap ${mib(s.heapUsed)}`,
    );
    if (healthy >= total * 0.9) break;
  }
  const settledS = (performance.now() - t0) / 1000;
  const settleCpuSeconds = (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
  console.log(`settled (${healthy} of ${total} Healthy) after ${settledS.toFixed(0)} s; churn for ${args["churn-seconds"]} s…`);
  const churn = sampler();
  let transitions = 0;
  const unsubscribe = sim.clusters.map((c) => c.controller.transitions.subscribe(() => transitions++));
  await sleep(Number(args["churn-seconds"]) * 1000);
  const s = churn();
  unsubscribe.forEach((u) => u());
  const cpuMsPerTransition = (s.cpuSeconds * 1000) / Math.max(1, transitions);
  const result = {
    total,
    startedS,
    settledS,
    settleCpuSeconds,
    healthy,
    churnCpuShare: s.share,
    cpuMsPerTransition,
    rss: s.rss,
    heapUsed: s.heapUsed,
    transitionsInChurn: transitions,
  };
  console.log(
    `churn: CPU ${(s.share * 100).toFixed(0)} % of a core (${cpuMsPerTransition.toFixed(1)} ms per transition), RSS ${mib(s.rss)}, heap ${mib(s.heapUsed)}, ${transitions} transitions; ${settleCpuSeconds.toFixed(0)} CPU-s to settle`,
  );
  console.log(JSON.stringify(result));
  console.log(`held: ${JSON.stringify(census(sim.clusters))}`);
  if (args.breakdown) heapBreakdown(sim.clusters);
  clearInterval(scrape);
  stopWatches.forEach((stop) => stop());
  await sim.stop();
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
