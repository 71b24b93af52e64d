import { spawn, type ChildProcess } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
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
 * Starts local processes, each in a process group of its own with its output in `<logsDir>/<name>.log`, reports
 * any that exits while the group is running, and stops them all (TERM to the whole group, KILL after a grace
 * period), the last started first. A synchronous exit hook KILLs whatever is still running if this Node process
 * ends without stop().
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
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}
