import { describe, expect, it } from "vitest";
import { createSharedResult } from "./shared-result";

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function setup() {
  let clock = 0;
  const calls: Array<ReturnType<typeof deferred<string>>> = [];
  const shared = createSharedResult<string>({
    compute: () => {
      const d = deferred<string>();
      calls.push(d);
      return d.promise;
    },
    freshMs: 10_000,
    staleMs: 60_000,
    now: () => clock,
  });
  return { shared, calls, advance: (ms: number) => (clock += ms) };
}

describe("createSharedResult", () => {
  it("computes once for concurrent requests and answers from the result while it is fresh", async () => {
    const { shared, calls, advance } = setup();
    const a = shared.get("1h");
    const b = shared.get("1h");
    expect(calls).toHaveLength(1);
    calls[0].resolve("report 1");
    expect(await a).toBe("report 1");
    expect(await b).toBe("report 1");
    advance(9_999);
    expect(await shared.get("1h")).toBe("report 1");
    expect(calls).toHaveLength(1);
    shared.get("24h");
    expect(calls).toHaveLength(2);
  });

  it("answers a stale result at once while one background refresh runs, then the refreshed one", async () => {
    const { shared, calls, advance } = setup();
    const first = shared.get("1h");
    calls[0].resolve("report 1");
    await first;
    advance(15_000);
    expect(await shared.get("1h")).toBe("report 1");
    expect(await shared.get("1h")).toBe("report 1");
    expect(calls).toHaveLength(2);
    calls[1].resolve("report 2");
    await calls[1].promise;
    await Promise.resolve();
    expect(await shared.get("1h")).toBe("report 2");
  });

  it("keeps the last good result when a background refresh fails, and waits once it is too old", async () => {
    const { shared, calls, advance } = setup();
    const first = shared.get("1h");
    calls[0].resolve("report 1");
    await first;
    advance(20_000);
    expect(await shared.get("1h")).toBe("report 1");
    calls[1].reject(new Error("prometheus down"));
    await calls[1].promise.catch(() => undefined);
    await Promise.resolve();
    expect(await shared.get("1h")).toBe("report 1");
    expect(calls).toHaveLength(3);
    advance(60_000);
    const waiting = shared.get("1h");
    // The refresh started before is still in flight: the too-old result is not answered, the request waits for it.
    calls[2].resolve("report 3");
    expect(await waiting).toBe("report 3");
  });

  it("does not keep a failed first computation", async () => {
    const { shared, calls } = setup();
    const first = shared.get("1h");
    calls[0].reject(new Error("prometheus down"));
    await expect(first).rejects.toThrow("prometheus down");
    await Promise.resolve();
    const second = shared.get("1h");
    expect(calls).toHaveLength(2);
    calls[1].resolve("report 2");
    expect(await second).toBe("report 2");
  });
});
