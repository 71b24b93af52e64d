import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";

export interface StartSpec {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ManagedProcess {
  name: string;
  pid: number;
  logFile: string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  exited: Promise<number | string>;
}

/** An unexpected exit, with the end of the process's log. */
export class ProcessExitError extends Error {
  constructor(
    readonly processName: string,
    readonly code: number | string,
    readonly logTail: string,
    readonly logFile: string,
  ) {
    super(
      `${processName} exited unexpectedly (${typeof code === "number" ? `code ${code}` : code}); last lines of ${logFile}:\n${logTail}`,
    );
  }
}

export function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/**
 * Kills every process group this Node process started when it ends without stopping them, however it ends: a crash,
 * SIGKILL, a second Ctrl-C. Node has no PDEATHSIG, so one detached bash per Node process holds the read end of a pipe
 * whose write end only this process holds; the kernel closes it when the process dies, and the watchdog then sends
 * TERM to every group still registered (`+pgid` / `-pgid` lines), and KILL to those alive 10 s later. It ignores
 * INT, TERM and HUP and sits in a session of its own, so Ctrl-C at the terminal does not reach it.
 */
const WATCHDOG_SCRIPT = `
trap '' INT TERM HUP
declare -A groups=()
while IFS= read -r line; do
  case "$line" in
    +[0-9]*) groups[\${line:1}]=1 ;;
    -[0-9]*) unset "groups[\${line:1}]" ;;
  esac
done
[ \${#groups[@]} -eq 0 ] && exit 0
for g in "\${!groups[@]}"; do kill -TERM -- "-$g" 2>/dev/null; done
for _ in $(seq 100); do
  alive=0
  for g in "\${!groups[@]}"; do kill -0 -- "-$g" 2>/dev/null && alive=1; done
  [ $alive -eq 0 ] && exit 0
  sleep 0.1
done
for g in "\${!groups[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
`;

let watchdog: { child: ChildProcess; stdin: Socket } | null = null;

/** Tells the watchdog (started at first use) that a process group starts (`+`) or has ended (`-`). */
function tellWatchdog(change: "+" | "-", pgid: number): void {
  if (pgid <= 0) return;
  if (!watchdog) {
    const child = spawn("bash", ["-c", WATCHDOG_SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    const stdin = child.stdin as Socket;
    // Neither the watchdog nor its pipe keeps this process alive; an error (it died) must not crash it either.
    child.unref();
    stdin.unref();
    stdin.on("error", () => {});
    child.once("error", () => {});
    watchdog = { child, stdin };
  }
  // libuv writes a pipe at once when nothing is queued: the line is in the kernel's buffer when this returns.
  watchdog.stdin.write(`${change}${pgid}\n`);
}

/**
 * Starts local processes, each in a process group of its own with its output in `<logsDir>/<name>.log`, reports
 * any that exits while the group is running, and stops them all (TERM to the whole group, KILL after a grace
 * period), the last started first. A synchronous exit hook KILLs whatever is still running if this Node process
 * ends without stop(), and the watchdog above does the same if it ends without running its exit hooks.
 */
export class ProcessGroup {
  private readonly children: Array<{ spec: StartSpec; child: ChildProcess; managed: ManagedProcess }> = [];
  private stopping = false;
  /** Processes stopped on purpose by stopOne(): their exit is not a failure. */
  private readonly stoppedOnPurpose = new Set<ManagedProcess>();
  private readonly exitHook = () => this.killAllNow();

  constructor(
    private readonly logsDir: string,
    private readonly onUnexpectedExit: (error: ProcessExitError) => void,
  ) {
    process.on("exit", this.exitHook);
  }

  start(spec: StartSpec): ManagedProcess {
    if (this.stopping) throw new Error(`not starting ${spec.name}: the cluster is stopping`);
    const logFile = path.join(this.logsDir, `${spec.name}.log`);
    const fd = openSync(logFile, "a");
    let child: ChildProcess;
    try {
      child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env ?? process.env, detached: true, stdio: ["ignore", fd, fd] });
    } finally {
      closeSync(fd);
    }
    const exited = new Promise<number | string>((resolve) => {
      child.once("error", (err) => resolve(`failed to start: ${err.message}`));
      child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"));
    });
    const managed: ManagedProcess = { name: spec.name, pid: child.pid ?? -1, logFile, exited };
    tellWatchdog("+", managed.pid);
    this.children.push({ spec, child, managed });
    void exited.then((code) => {
      if (!this.stopping && !this.stoppedOnPurpose.has(managed))
        this.onUnexpectedExit(new ProcessExitError(spec.name, code, tail(logFile), logFile));
    });
    return managed;
  }

  get(name: string): ManagedProcess | undefined {
    return this.children.find((c) => c.spec.name === name)?.managed;
  }

  /** Stops every process, newest first; resolves when all have exited. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    for (const { managed } of [...this.children].reverse()) await terminate(managed, graceMs);
    process.off("exit", this.exitHook);
  }

  /** Stops one process (and its children) as stop() does, without reporting its exit; start() may start it again. */
  async stopOne(name: string, graceMs = 10_000): Promise<void> {
    const index = this.children.findIndex((c) => c.spec.name === name);
    if (index < 0) throw new Error(`no process named ${name}`);
    const [{ managed }] = this.children.splice(index, 1);
    this.stoppedOnPurpose.add(managed);
    await terminate(managed, graceMs);
  }

  private killAllNow(): void {
    for (const { managed } of this.children) if (managed.pid > 0) signalGroup(managed.pid, "SIGKILL");
  }
}

/** TERM to the process's group, KILL after the grace period; resolves when it has exited. */
async function terminate(managed: ManagedProcess, graceMs: number): Promise<void> {
  if (managed.pid < 0) return;
  signalGroup(managed.pid, "SIGTERM");
  const timer = setTimeout(() => signalGroup(managed.pid, "SIGKILL"), graceMs);
  await managed.exited;
  clearTimeout(timer);
  // A process's own children (the plugin the controller started) share its group and may outlive it.
  signalGroup(managed.pid, "SIGKILL");
  tellWatchdog("-", managed.pid);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
