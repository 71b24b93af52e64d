import { describe, expect, it } from "vitest";
import { busyCores, headerLines, loadLine, loadVerdict, parseProcStat, type RunContext } from "./run-context";

/** /proc/stat of a 2-core machine: user nice system idle iowait irq softirq steal guest guest_nice. */
const procStat = (cpu: number[]) =>
  [`cpu  ${cpu.join(" ")}`, "cpu0 1 0 0 1 0 0 0 0 0 0", "cpu1 1 0 0 1 0 0 0 0 0 0", "intr 12345", "ctxt 678", "btime 1700000000"].join(
    "\n",
  );

describe("busy cores from two /proc/stat snapshots", () => {
  const before = parseProcStat(procStat([1000, 100, 500, 8000, 50, 0, 10, 0, 40, 0]));

  it("is the busy share of the ticks that passed, times the cores", () => {
    // 600 ticks passed (3 s × 100 Hz × 2 cores), 300 of them idle: one core's worth busy.
    const after = parseProcStat(procStat([1200, 150, 550, 8300, 50, 0, 10, 0, 40, 0]));
    expect(before.cores).toBe(2);
    expect(busyCores(before, after)).toBeCloseTo(1.0, 5);
  });

  it("counts iowait as idle and steal as busy, and does not count guest time twice", () => {
    // 600 ticks: 60 user, 420 iowait, 120 steal, plus 60 guest already inside user.
    const after = parseProcStat(procStat([1060, 100, 500, 8000, 470, 0, 10, 120, 100, 0]));
    expect(busyCores(before, after)).toBeCloseTo((180 / 600) * 2, 5);
  });

  it("refuses snapshots with no time between them rather than calling the machine idle", () => {
    expect(() => busyCores(before, before)).toThrow(/no CPU time/);
  });
});

describe("loadVerdict", () => {
  it("measures on an idle machine whatever the options, up to half a core busy", () => {
    expect(loadVerdict(0.5, { short: false, allowBusy: false })).toBe("idle");
    expect(loadVerdict(0.1, { short: true, allowBusy: true })).toBe("idle");
  });

  it("refuses a busy machine unless --allow-busy, and never refuses --short", () => {
    expect(loadVerdict(0.51, { short: false, allowBusy: false })).toBe("refuse");
    expect(loadVerdict(1.8, { short: false, allowBusy: true })).toBe("busy");
    expect(loadVerdict(1.8, { short: true, allowBusy: false })).toBe("busy");
  });
});

describe("the report's header", () => {
  const context: RunContext = {
    startedAt: "2026-12-05T23:10:42.000Z",
    command: "tsx bench/run.ts --short --repeat 2 --allow-busy",
    commit: "8e12771+dirty",
    machine: { cores: 2, model: "AMD EPYC", memoryBytes: 24 * 1024 ** 3, node: "v20.20.2" },
    load: { busyCores: 1.234, verdict: "busy" },
  };

  it("names the commit, the exact command, the machine and how busy it was", () => {
    expect(headerLines(context)).toEqual([
      "- 2026-12-05 23:10 UTC, commit 8e12771+dirty: `tsx bench/run.ts --short --repeat 2 --allow-busy`",
      "- machine: 2 cores (AMD EPYC), 24.0 GiB, Node.js v20.20.2",
      "- **machine busy: 1.23 cores** kept busy by other processes before the run (limit 0.5): every figure includes that contention",
    ]);
  });

  it("says an idle machine was idle, and a run of --repeat that its parent checked", () => {
    expect(loadLine({ busyCores: 0.04, verdict: "idle" })).toBe("machine idle: 0.04 cores busy before the run (limit 0.5)");
    expect(loadLine(undefined)).toMatch(/by the `--repeat` parent/);
  });
});
