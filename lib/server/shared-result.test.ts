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

function setup(maxKeys = 50) {
  let clock = 0;
  const calls: Array<{ key: string } & ReturnType<typeof deferred<string>>> = [];
  const shared = createSharedResult<string>({
    compute: (key) => {
      const d = deferred<string>();
      calls.push({ key, ...d });
      return d.promise;
    },
    freshMs: 10_000,
    staleMs: 60_000,
    retryMs: 5_000,
    maxKeys,
    now: () => clock,
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  /** Asks for `key` and lets its computation finish with `value`. */
  const computed = async (key: string, value: string) => {
    const answer = shared.get(key);
    await settle();
    calls.at(-1)!.resolve(value);
    await answer;
  };
  return { shared, calls, settle, computed, advance: (ms: number) => (clock += ms) };
}

describe("createSharedResult", () => {
  it("computes once for concurrent requests and answers from the result while it is fresh", async () => {
    const { shared, calls, advance } = setup();
    const a = shared.get("1h");
    const b = shared.get("1h");
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    calls[0].resolve("report 1");
    expect(await a).toEqual({ value: "report 1", refreshing: false });
    expect(await b).toEqual({ value: "report 1", refreshing: false });
    advance(9_999);
    expect((await shared.get("1h")).value).toBe("report 1");
    expect(calls).toHaveLength(1);
    void shared.get("24h");
    await Promise.resolve();
    expect(calls).toHaveLength(2);
  });

  it("answers a stale result at once, saying a refresh runs, then the refreshed one", async () => {
    const { shared, calls, settle, computed, advance } = setup();
    await computed("1h", "report 1");
    advance(15_000);
    expect(await shared.get("1h")).toEqual({ value: "report 1", refreshing: true });
    expect(await shared.get("1h")).toEqual({ value: "report 1", refreshing: true });
    expect(calls).toHaveLength(2);
    calls[1].resolve("report 2");
    await settle();
    expect(await shared.get("1h")).toEqual({ value: "report 2", refreshing: false });
  });

  it("keeps the last good result when a refresh fails, retries after a pause, and waits once it is too old", async () => {
    const { shared, calls, settle, computed, advance } = setup();
    await computed("1h", "report 1");
    advance(20_000);
    expect((await shared.get("1h")).value).toBe("report 1");
    calls[1].reject(new Error("prometheus down"));
    await settle();
    // Failed a moment ago: answered, but no new computation on every request.
    expect(await shared.get("1h")).toEqual({ value: "report 1", refreshing: false });
    expect(calls).toHaveLength(2);
    advance(5_000);
    expect(await shared.get("1h")).toEqual({ value: "report 1", refreshing: true });
    expect(calls).toHaveLength(3);
    advance(60_000);
    const waiting = shared.get("1h");
    // The refresh started before is still in flight: the too-old result is not answered, the request waits for it.
    calls[2].resolve("report 3");
    expect((await waiting).value).toBe("report 3");
  });

  it("does not keep a failed first computation, nor a place for it", async () => {
    const { shared, calls, settle, computed } = setup(2);
    await computed("1h", "report 1h");
    for (const junk of ["x", "y", "z"]) {
      const attempt = shared.get(junk);
      await settle();
      calls.at(-1)!.reject(new Error(`no cluster named "${junk}"`));
      await expect(attempt).rejects.toThrow("no cluster");
    }
    // Failing keys left no entry behind: the working one was not pushed out.
    expect((await shared.get("1h")).value).toBe("report 1h");
    expect(calls).toHaveLength(4);
  });

  it("evicts the least recently used key, not the most used one", async () => {
    const { shared, calls, computed } = setup(2);
    await computed("1h", "report 1h");
    await computed("6h", "report 6h");
    await shared.get("1h");
    await computed("24h", "report 24h");
    expect((await shared.get("1h")).value).toBe("report 1h");
    expect(calls.map((c) => c.key)).toEqual(["1h", "6h", "24h"]);
  });
});
