import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { descendantsOf, listProcesses, stillRunning, type ProcessEntry } from "@/test/harness/process-table";
import { realBackendSkipReason } from "@/test/harness/real-backend";

/**
 * `npm run cluster` leaves no process behind, however its Node process ends: Ctrl-C (SIGINT to its process group, as
 * a terminal sends it), SIGTERM, or a crash (SIGKILL, which runs no handler at all). Each case starts the real
 * cluster's CLI as `scripts/cluster.sh` does (node --import tsx realcluster/cli.ts; --no-app: Rollscope's server is
 * one more process group of the same kind), waits until it is up with its demo workloads, its data plane and its
 * load, notes every process below it, signals it, and waits until none of them — and no process naming its working
 * folder — is left.
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
/** The binaries every start runs (by executable name). */
const EXPECTED = [
  "etcd",
  "kube-apiserver",
  "kube-controller-manager",
  "kube-scheduler",
  "kwok",
  "rollouts-controller",
  "prometheus",
  "traefik",
];
const UP_MS = 300_000;
const GONE_MS = 120_000;

interface RunningCli {
  child: ChildProcess;
  workDir: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let running: RunningCli | null = null;

afterEach(() => {
  // A failed case must not leave its cluster to the next: the watchdog cleans up once its Node process is gone.
  const child = running?.child;
  if (child?.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
  if (running) rmSync(running.workDir, { recursive: true, force: true });
  running = null;
});

async function startCli(): Promise<RunningCli> {
  const workDir = mkdtempSync(path.join(tmpdir(), "rollscope-cleanup-"));
  const child = spawn(process.execPath, ["--import", "tsx", "realcluster/cli.ts", "--no-app", "--work-dir", workDir], {
    cwd: repoRoot,
    // A process group of its own, as the shell gives a foreground job: SIGINT to the group is Ctrl-C.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  running = { child, workDir, output: () => output, exited };
  const deadline = Date.now() + UP_MS;
  while (!output.includes("Stop with Ctrl-C.")) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the cluster CLI exited while starting:\n${output}`);
    if (Date.now() > deadline) throw new Error(`the cluster CLI was not up within ${UP_MS / 1000} s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return running;
}

/** Processes that name the run's working folder (its etcd data, certificates, configs, the plugin's copy). */
function namingWorkDir(workDir: string): ProcessEntry[] {
  return listProcesses().filter((p) => p.pid !== process.pid && (p.cmdline.includes(workDir) || p.exe.startsWith(workDir)));
}

const describeProcess = (p: ProcessEntry) => `${p.pid} ${path.basename(p.exe) || "?"}: ${p.cmdline.slice(0, 160)}`;

async function leftoversAfter(cli: RunningCli, started: ProcessEntry[]): Promise<string[]> {
  const deadline = Date.now() + GONE_MS;
  for (;;) {
    const left = [...stillRunning(started), ...namingWorkDir(cli.workDir)];
    if (left.length === 0 || Date.now() > deadline) return [...new Set(left.map(describeProcess))];
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe.skipIf(realBackendSkipReason() !== null)("npm run cluster leaves no process behind", () => {
  const cases: Array<{ how: string; signal: NodeJS.Signals; toGroup: boolean }> = [
    { how: "Ctrl-C (SIGINT to its process group)", signal: "SIGINT", toGroup: true },
    { how: "SIGTERM", signal: "SIGTERM", toGroup: false },
    { how: "a crash of its Node process (SIGKILL)", signal: "SIGKILL", toGroup: false },
  ];
  for (const { how, signal, toGroup } of cases) {
    it(
      `after ${how}`,
      async () => {
        const cli = await startCli();
        const started = descendantsOf(cli.child.pid!);
        const names = new Set(started.map((p) => path.basename(p.exe)));
        expect(
          EXPECTED.filter((name) => !names.has(name)),
          `started:\n${started.map(describeProcess).join("\n")}`,
        ).toStrictEqual([]);

        process.kill(toGroup ? -cli.child.pid! : cli.child.pid!, signal);
        const exit = await cli.exited;
        expect(await leftoversAfter(cli, started), cli.output().slice(-3_000)).toStrictEqual([]);
        if (signal === "SIGKILL") expect(exit.signal).toBe("SIGKILL");
        else {
          expect(exit.code, cli.output().slice(-3_000)).toBe(0);
          expect(cli.output()).toContain("stopped.");
        }
      },
      UP_MS + GONE_MS + 60_000,
    );
  }
});
