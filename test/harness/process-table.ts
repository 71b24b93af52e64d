import { readdirSync, readFileSync, readlinkSync } from "node:fs";

/** Linux's process table from /proc: what a test needs to find the processes a run left behind. */

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** Start time in clock ticks since boot: a pid with another start time is another process. */
  startTime: number;
  /** State letter (R, S, Z, …). */
  state: string;
  /** The executable's path ("" when it cannot be read). */
  exe: string;
  cmdline: string;
}

function readEntry(pid: number): ProcessEntry | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may contain spaces: the fields after its last ')' are plain.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    let exe = "";
    try {
      exe = readlinkSync(`/proc/${pid}/exe`);
    } catch {
      /* a zombie, or gone */
    }
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
    return { pid, ppid: Number(fields[1]), startTime: Number(fields[19]), state: fields[0], exe, cmdline };
  } catch {
    return null;
  }
}

export function listProcesses(): ProcessEntry[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readEntry(Number(name)))
    .filter((p): p is ProcessEntry => p !== null);
}

/** Every process below `rootPid` (children, their children, …), from one snapshot of the table. */
export function descendantsOf(rootPid: number, table: ProcessEntry[] = listProcesses()): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  const parents = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of table) {
      if (parents.has(p.ppid) && !parents.has(p.pid)) {
        parents.add(p.pid);
        found.push(p);
        grew = true;
      }
    }
  }
  return found;
}

/** The ones of `processes` still running (same pid and start time, not a zombie). */
export function stillRunning(processes: readonly ProcessEntry[], table: ProcessEntry[] = listProcesses()): ProcessEntry[] {
  const live = new Map(table.map((p) => [p.pid, p]));
  return processes.filter((p) => {
    const now = live.get(p.pid);
    return now !== undefined && now.startTime === p.startTime && now.state !== "Z";
  });
}
