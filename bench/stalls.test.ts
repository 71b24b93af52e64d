import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eventLoopStalls, heldMs, heldOwnMs, readAppCounters, readLoopTurns } from "./stack";
import { helperThreads } from "./thread-times";

/** An app's /metrics whose longest event-loop delay (reset on each read, as prom-client's is) and GC counts are set per read. */
async function fakeMetrics(reads: Array<{ lagMaxSeconds: number; majorOver50: number }>): Promise<{ address: string; server: Server }> {
  let i = 0;
  const server = createServer((_, res) => {
    const read = reads[Math.min(i++, reads.length - 1)];
    res.end(
      [
        `nodejs_eventloop_lag_max_seconds ${read.lagMaxSeconds}`,
        `nodejs_gc_duration_seconds_bucket{le="0.05",kind="major"} 10`,
        `nodejs_gc_duration_seconds_count{kind="major"} ${10 + read.majorOver50}`,
        `nodejs_gc_duration_seconds_bucket{le="0.05",kind="minor"} 400`,
        `nodejs_gc_duration_seconds_count{kind="minor"} 400`,
      ].join("\n"),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  vi.restoreAllMocks();
});

describe("the server's longest stall over a stretch of the run", () => {
  it("keeps a stall that another read of /metrics reset in the middle of the stretch, and names the long GC pauses", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const fake = await fakeMetrics([
      { lagMaxSeconds: 0.9, majorOver50: 0 }, // start: before the stretch, not counted
      { lagMaxSeconds: 0.3, majorOver50: 1 }, // a scenario reads its counters meanwhile
      { lagMaxSeconds: 0.02, majorOver50: 1 }, // stop
    ]);
    server = fake.server;
    const stalls = eventLoopStalls(fake.address);
    await stalls.start();
    await readAppCounters(fake.address);
    expect((await stalls.stop("under the API load")).longestMs).toBeCloseTo(300, 5);
    expect(log).toHaveBeenCalledWith(
      expect.stringMatching(
        /^server under the API load: longest stall 300 ms; GC pauses ≥ 50 ms: 1 major \(monotonic clock [\d.]+–[\d.]+ s\)$/,
      ),
    );
  });

  it("counts only the reads of its own stretch", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const fake = await fakeMetrics([
      { lagMaxSeconds: 0, majorOver50: 0 },
      { lagMaxSeconds: 0.04, majorOver50: 0 },
      { lagMaxSeconds: 0.5, majorOver50: 0 }, // after the stretch ended
    ]);
    server = fake.server;
    const stalls = eventLoopStalls(fake.address);
    await stalls.start();
    expect((await stalls.stop("over the churn alone")).longestMs).toBeCloseTo(40, 5);
    await readAppCounters(fake.address);
    expect((await stalls.stop("again")).longestMs).toBeNaN();
  });
});

const monotonicMs = () => Number(process.hrtime.bigint() / 1_000n) / 1000;

describe("the server's own share of a stall", () => {
  it("is the longest turn of the stretch less the time the thread waited for a core", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const fake = await fakeMetrics([
      { lagMaxSeconds: 0, majorOver50: 0 },
      { lagMaxSeconds: 0.15, majorOver50: 0 },
    ]);
    server = fake.server;
    const loopLog = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-stalls-")), "event-loop.log");
    const line = (start: number, gap: number, cpu: number, runQueue: number, idle = 0) =>
      `${start} ${gap} ${cpu} ${runQueue} ${idle} 3.0\n`;
    appendFileSync(loopLog, line(monotonicMs() - 5_000, 400, 390, 0)); // before the stretch: not counted
    const stalls = eventLoopStalls(fake.address, loopLog);
    await stalls.start();
    const now = monotonicMs();
    // The longest delay was mostly a wait for a core, another a late wake-up in the wait for I/O; a shorter turn was
    // the server's own work.
    appendFileSync(loopLog, line(now, 150, 10, 130) + line(now, 100, 1, 1, 97) + line(now, 70, 60, 2) + "a torn line\n");
    const stall = await stalls.stop("while the pages took changes");
    expect(stall.longestMs).toBeCloseTo(150, 5);
    expect(stall.heldMs).toBeCloseTo(68, 5);
    expect(log).toHaveBeenCalledWith(
      "  its longest turn: 150 ms: on a CPU 10, waiting for a core 130, blocked 10 (in the wait for I/O 0); the server's other threads 3 ms of CPU meanwhile",
    );
  });

  it("takes off a turn's blocked time that one of the server's helper threads spent waiting for a core, never its CPU", () => {
    // 100 ms: 10 on a CPU, 20 waiting for a core, 70 blocked (signalling a helper thread it had woken before).
    const turn = { start: 0, gap: 100, cpu: 10, runQueue: 20, idle: 0, otherThreads: 1 };
    expect(heldMs(turn)).toBe(80);
    expect(heldOwnMs(turn, 0)).toBe(80);
    expect(heldOwnMs(turn, 50)).toBe(30);
    expect(heldOwnMs(turn, 500)).toBe(10);
  });

  it.runIf(process.platform === "linux")("samples the server's pool and V8 threads over the stretch", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const fake = await fakeMetrics([{ lagMaxSeconds: 0.03, majorOver50: 0 }]);
    server = fake.server;
    const loopLog = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-stalls-")), "event-loop.log");
    // A Node process that has used its pool (libuv starts it on first use) and idles.
    const child = spawn(process.execPath, ["-e", "require('fs').readFile('/proc/self/stat', () => {}); setTimeout(() => {}, 20000)"]);
    try {
      await vi.waitFor(() => expect(helperThreads(child.pid!).length).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
      const stalls = eventLoopStalls(fake.address, loopLog, child.pid);
      await stalls.start();
      appendFileSync(loopLog, `${monotonicMs()} 60 5 5 0 1.0\n`); // blocked 50 ms while the helpers were idle
      await new Promise((resolve) => setTimeout(resolve, 80)); // past the turn's end, so the samples cover it
      const stall = await stalls.stop("sampled");
      expect(stall.heldMs).toBeCloseTo(55, 5);
      expect(stall.heldOwnMs).toBeCloseTo(55, 5);
      // Without the server's process the helpers' share is not measured.
      const unsampled = eventLoopStalls(fake.address, loopLog);
      await unsampled.start();
      expect((await unsampled.stop("unsampled")).heldOwnMs).toBeNaN();
    } finally {
      child.kill();
    }
  });

  it("reads a stretch without a logged turn as held under the probe's 20 ms, and one without the probe as not measured", async () => {
    vi.spyOn(console, "log").mockImplementation(() => undefined);
    const fake = await fakeMetrics([{ lagMaxSeconds: 0.01, majorOver50: 0 }]);
    server = fake.server;
    const loopLog = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-stalls-")), "event-loop.log");
    appendFileSync(loopLog, "");
    const withLog = eventLoopStalls(fake.address, loopLog);
    await withLog.start();
    expect((await withLog.stop("quiet")).heldMs).toBe(0);
    const withoutLog = eventLoopStalls(fake.address, path.join(path.dirname(loopLog), "absent.log"));
    await withoutLog.start();
    expect((await withoutLog.stop("no probe")).heldMs).toBeNaN();
  });
});

describe.skipIf(process.platform !== "linux")("the event-loop probe (bench/event-loop-probe.mjs)", () => {
  it("logs a long turn, and tells one that computed from one that slept", () => {
    const loopLog = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-probe-")), "event-loop.log");
    // Two long turns: 150 ms of computing, then (after a short pause) 150 ms asleep in a blocking call.
    const script = `
      setTimeout(() => {
        const end = Date.now() + 150;
        while (Date.now() < end);
        setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150), 50);
      }, 50);
      setTimeout(() => {}, 500);`;
    const probe = path.join(import.meta.dirname, "event-loop-probe.mjs");
    const result = spawnSync(process.execPath, [`--import=${probe}`, "-e", script], {
      env: { ...process.env, ROLLSCOPE_BENCH_LOOP_LOG: loopLog },
      encoding: "utf8",
    });
    expect(result.status, result.stderr).toBe(0);
    const turns = readLoopTurns(loopLog, 0, Number.MAX_SAFE_INTEGER).filter((t) => t.gap >= 140);
    expect(turns).toHaveLength(2);
    const [computed, slept] = turns;
    // However busy the machine, computing is on a CPU or waiting for one; sleeping is neither.
    expect(computed.cpu + computed.runQueue).toBeGreaterThan(130);
    expect(slept.cpu).toBeLessThan(40);
    // A blocking call is not the loop's wait for I/O: it counts as held.
    expect(slept.idle).toBeLessThan(20);
    expect(heldMs(slept)).toBeGreaterThan(130);
  });
});
