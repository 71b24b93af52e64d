import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { eventLoopStalls, readAppCounters } from "./stack";

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
    expect(await stalls.stop("under the API load")).toBeCloseTo(300, 5);
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
    expect(await stalls.stop("over the churn alone")).toBeCloseTo(40, 5);
    await readAppCounters(fake.address);
    expect(await stalls.stop("again")).toBeNaN();
  });
});
