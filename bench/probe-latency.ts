import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation } from "@/test/harness/rollout-scenario";
import { startAppProcess } from "@/test/harness/app-process";
import { findFreePort, waitFor } from "@/test/harness/free-port";
import { floodStreams, startProber, type ProbeResult } from "@/test/harness/stream-flood";

/*
 * Probe latency under a connection flood (issue 30, item 1): the built app (`npx next build` first) with the probe
 * listener, 2,000 /api/stream connection attempts at once from 40 client addresses, while a separate process probes
 * /api/healthz and /api/readyz every 200 ms with the chart's probe timeout, on the probe listener and (for comparison,
 * the path probes took before it) on the pages' port. Prints (and writes to bench/results/probe-latency.json) the
 * probes' latency percentiles and how the attempts were answered.
 *
 *   npx tsx bench/probe-latency.ts [attempts]
 */

const attempts = Number(process.argv[2] ?? 2_000);
const ADDRESSES = 40;
const repoRoot = path.resolve(import.meta.dirname, "..");
const values = parse(readFileSync(path.join(repoRoot, "charts/rollscope/values.yaml"), "utf8")) as {
  livenessProbe: { timeoutSeconds: number };
};
const timeoutMs = values.livenessProbe.timeoutSeconds * 1_000;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const sim = await startActionsSimulation();
  const probePort = await findFreePort();
  const configPath = writeRollscopeConfig({
    kubeconfigPath: sim.kubeconfigPath,
    clusters: [{ name: "prod" }],
    server: { probeListen: `127.0.0.1:${probePort}` },
  });
  const app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, env: { ROLLSCOPE_CONFIG: configPath } });
  try {
    await waitFor("ready", async () => (await fetch(`http://127.0.0.1:${probePort}/api/readyz`)).ok, 60_000, 200);
    const prober = startProber(probePort, timeoutMs);
    const pagesPortProber = startProber(app.port, timeoutMs);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const started = performance.now();
    const answers = await floodStreams(app.port, attempts, ADDRESSES);
    const floodMs = performance.now() - started;
    const probes: ProbeResult[] = await prober.stop();
    const pagesPortProbes: ProbeResult[] = await pagesPortProber.stop();
    const summary = (results: readonly ProbeResult[]) => {
      const ms = results.map((p) => Math.round(p.ms)).sort((a, b) => a - b);
      return {
        probes: results.length,
        failed: results.filter((p) => p.status !== 200).length,
        latencyMs: { p50: percentile(ms, 50), p95: percentile(ms, 95), p99: percentile(ms, 99), max: ms[ms.length - 1] },
      };
    };
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a ? String(a.status) : "no answer"] = (statuses[a ? String(a.status) : "no answer"] ?? 0) + 1;
    for (const a of answers) a?.response.destroy();
    const result = {
      attempts,
      floodSeconds: Math.round(floodMs / 100) / 10,
      streamAnswers: statuses,
      probeTimeoutMs: timeoutMs,
      probeListener: summary(probes),
      pagesPort: summary(pagesPortProbes),
    };
    console.log(JSON.stringify(result, null, 2));
    writeFileSync(path.join(repoRoot, "bench/results/probe-latency.json"), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await app.stop();
    await sim.stop();
  }
}

await main();
