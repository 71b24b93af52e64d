/**
 * What a benchmark report says about the run it came from: the commit, the exact command, the machine, and how busy
 * the machine was before the run. Two shared cores make every figure sensitive to other work: a report taken beside a
 * compiler measures the compiler too, so a run refuses to start on a busy machine unless told it may.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { sleep } from "./measure";

/** Cores' worth of CPU other processes may keep busy before a run refuses to measure. */
const BUSY_CORES_LIMIT = 0.5;

/** How long the idle check samples /proc/stat. */
const IDLE_CHECK_MS = 3_000;

/** The aggregate `cpu` line of /proc/stat (clock ticks since boot) and how many `cpuN` lines there are. */
export interface CpuTimes {
  total: number;
  idle: number;
  cores: number;
}

/**
 * Reads /proc/stat. Total is user through steal (guest time is already counted in user and nice); idle includes
 * iowait, which waits for the disk but leaves the core free. Steal counts as busy: the hypervisor took the core.
 */
export function parseProcStat(text: string): CpuTimes {
  const line = /^cpu\s+(.+)$/m.exec(text);
  if (!line) throw new Error("/proc/stat has no aggregate cpu line");
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line[1].trim().split(/\s+/).map(Number);
  const cores = text.match(/^cpu\d+\s/gm)?.length ?? 0;
  return { total: user + nice + system + idle + iowait + irq + softirq + (steal ?? 0), idle: idle + iowait, cores };
}

/** Cores' worth of CPU kept busy between two snapshots of /proc/stat. */
export function busyCores(before: CpuTimes, after: CpuTimes): number {
  const total = after.total - before.total;
  if (total <= 0) throw new Error("no CPU time passed between the two /proc/stat snapshots");
  return ((total - (after.idle - before.idle)) / total) * after.cores;
}

/**
 * "idle": measure. "busy": measure, and the report says how busy (`--allow-busy`, or `--short`, which `npm test` runs
 * on loaded CI machines to prove the harness works, not to produce figures). "refuse": do not measure at all.
 */
export type LoadVerdict = "idle" | "busy" | "refuse";

export function loadVerdict(busy: number, opts: { short: boolean; allowBusy: boolean }): LoadVerdict {
  if (busy <= BUSY_CORES_LIMIT) return "idle";
  return opts.short || opts.allowBusy ? "busy" : "refuse";
}

/** Cores' worth of CPU the machine's other processes kept busy over the idle check (this process's own subtracted). */
export async function measureOtherLoad(): Promise<number> {
  const read = () => parseProcStat(readFileSync("/proc/stat", "utf8"));
  const before = read();
  const ownBefore = process.cpuUsage();
  const startedAt = performance.now();
  await sleep(IDLE_CHECK_MS);
  const own = process.cpuUsage(ownBefore);
  const ownCores = (own.user + own.system) / 1000 / (performance.now() - startedAt);
  return Math.max(0, busyCores(before, read()) - ownCores);
}

/** The first lines of `ps` by CPU, for the refusal message (ps's %CPU is each process's average over its lifetime). */
export function topProcesses(): string {
  return execFileSync("ps", ["-eo", "pcpu,comm", "--sort=-pcpu"], { encoding: "utf8" }).split("\n").slice(0, 10).join("\n");
}

export function refusalMessage(busy: number, top: string): string {
  return [
    `bench: the machine is busy: other processes kept ${busy.toFixed(2)} cores busy over ${IDLE_CHECK_MS / 1000} s ` +
      `(limit ${BUSY_CORES_LIMIT}); its figures would measure them too. Nothing was started.`,
    `The busiest processes:\n${top}`,
    "Wait for them to finish, or pass --allow-busy to measure anyway (the report then says the machine was busy).",
  ].join("\n");
}

export interface LoadCheck {
  busyCores: number;
  verdict: "idle" | "busy";
}

export interface RunContext {
  startedAt: string;
  command: string;
  commit: string;
  machine: { cores: number; model: string; memoryBytes: number; node: string };
  /** Absent in a run started by `--repeat`: its parent checked once, before the first run. */
  load?: LoadCheck;
}

/** HEAD's short hash, "+dirty" when the tree has changes (untracked files included): the code measured is not HEAD's. */
function readCommit(repoRoot: string): string {
  const git = (...gitArgs: string[]) => execFileSync("git", gitArgs, { cwd: repoRoot, encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain") ? "+dirty" : ""}`;
  } catch {
    return "unknown (no git checkout)";
  }
}

function readCpuModel(): string {
  return /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1].trim() ?? "unknown";
}

/** An argument as a shell would need it typed. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`);

export function readRunContext(repoRoot: string, script: string, argv: readonly string[], load?: LoadCheck): RunContext {
  return {
    startedAt: new Date().toISOString(),
    command: ["tsx", script, ...argv].map(shellWord).join(" "),
    commit: readCommit(repoRoot),
    machine: { cores: cpus().length, model: readCpuModel(), memoryBytes: totalmem(), node: process.version },
    load,
  };
}

export function loadLine(load: LoadCheck | undefined): string {
  if (!load) return "idle check: once, by the `--repeat` parent, before the first run";
  const cores = `${load.busyCores.toFixed(2)} cores`;
  return load.verdict === "busy"
    ? `**machine busy: ${cores}** kept busy by other processes before the run (limit ${BUSY_CORES_LIMIT}): every figure includes that contention`
    : `machine idle: ${cores} busy before the run (limit ${BUSY_CORES_LIMIT})`;
}

/** The report's header, as a Markdown list to paste above its table. */
export function headerLines(context: RunContext): string[] {
  const { cores, model, memoryBytes, node } = context.machine;
  return [
    `- ${context.startedAt.slice(0, 16).replace("T", " ")} UTC, commit ${context.commit}: \`${context.command}\``,
    `- machine: ${cores} cores (${model}), ${(memoryBytes / 1024 ** 3).toFixed(1)} GiB, Node.js ${node}`,
    `- ${loadLine(context.load)}`,
  ];
}
