/**
 * `node --conditions=react-server --expose-gc --import tsx bench/watch-memory.ts [--clusters 4] [--rollouts 250] [--rate 50]
 * [--bookkeeping] [--snapshot file]`:
 * what the server's fleet state keeps alive per watched Rollout. The simulator's `scale` scenario runs in a child
 * process (its objects are not counted); this process holds only what the server holds per Rollout — the cluster
 * watchers and the live stream's overview rows and recent deltas — and reports the heap growth after a full
 * collection. It includes what the first watch loads and compiles (a few MiB whatever the fleet's size): compare two
 * sizes (`--rollouts 50` and `250`) for the part that grows with the fleet. `--bookkeeping` gives the Rollouts the
 * managedFields and last-applied annotation a real cluster's carry. `--snapshot` also writes a heap snapshot
 * (open it in Chrome DevTools).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { writeHeapSnapshot } from "node:v8";
import { parseConfig } from "../lib/config/load-config";
import { Fleet } from "../lib/fleet/fleet";
import { DeltaLog } from "../lib/live/delta-log";

const { values: args } = parseArgs({
  options: {
    clusters: { type: "string", default: "4" },
    rollouts: { type: "string", default: "250" },
    rate: { type: "string", default: "50" },
    bookkeeping: { type: "boolean", default: false },
    snapshot: { type: "string" },
  },
});
const clusters = Number(args.clusters);
const rolloutsPerCluster = Number(args.rollouts);
const total = clusters * rolloutsPerCluster;
const repoRoot = path.resolve(import.meta.dirname, "..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

function heapAfterGc(): number {
  if (!global.gc) throw new Error("run with --expose-gc");
  for (let i = 0; i < 3; i++) global.gc();
  return process.memoryUsage().heapUsed;
}

/** The simulator in a child process; resolves once it wrote the Rollscope configuration. */
async function startSimulator(dir: string): Promise<{ configPath: string; stop(): Promise<void> }> {
  const configPath = path.join(dir, "rollscope.yaml");
  const cliArgs = ["--import", "tsx", "sim/cli.ts", "--scenario", "scale", "--time-scale", "60", "--rate", String(args.rate)];
  cliArgs.push(
    "--clusters",
    String(clusters),
    "--rollouts",
    String(rolloutsPerCluster),
    "--kubeconfig",
    path.join(dir, "kubeconfig"),
    "--rollscope-config",
    configPath,
  );
  if (args.bookkeeping) cliArgs.push("--bookkeeping");
  const child = spawn(process.execPath, cliArgs, { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => (chunk.toString().includes("tokens:") ? resolve() : undefined));
    child.once("exit", (code) => reject(new Error(`the simulator exited with ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    configPath,
    async stop() {
      child.kill("SIGINT");
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-watch-memory-"));
  const sim = await startSimulator(dir);
  try {
    const config = parseConfig(readFileSync(sim.configPath, "utf8"), sim.configPath);
    const before = heapAfterGc();
    const fleet = new Fleet(config);
    const deltaLog = new DeltaLog(fleet);
    const deadline = Date.now() + 120_000;
    while (fleet.rollouts().length < total) {
      if (Date.now() > deadline) throw new Error(`the fleet shows ${fleet.rollouts().length} of ${total} Rollouts after 120 s`);
      await sleep(250);
    }
    await sleep(2_000);
    const rows = deltaLog.rows().length;
    const after = heapAfterGc();
    if (args.snapshot) console.log(`heap snapshot: ${writeHeapSnapshot(args.snapshot)}`);
    console.log(`${clusters} clusters × ${rolloutsPerCluster} Rollouts = ${total}, ${rows} overview rows`);
    console.log(`heap: before ${mib(before)}, with the fleet's state ${mib(after)}`);
    console.log(`Heap bytes per watched Rollout: ${((after - before) / total / 1024).toFixed(1)} KiB`);
    await fleet.stop();
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
