import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createKeptResult, type KeptResultOptions } from "./kept-result";

const EVERY = 30_000;
const FRESH = 10_000;
const STALE = 60_000;
const IDLE = 10 * 60_000;

/** A result numbered by its computation, on vitest's fake clock; `fail` makes the next computations reject. */
function keptCounter(overrides: Partial<KeptResultOptions<number>> = {}) {
  let computed = 0;
  let failing = false;
  const log = vi.fn();
  const compute = vi.fn(async () => {
    if (failing) throw new Error("Prometheus answered 503");
    return ++computed;
  });
  const kept = createKeptResult({
    name: "test",
    compute,
    everyMs: EVERY,
    freshMs: FRESH,
    staleMs: STALE,
    idleAfterMs: IDLE,
    log,
    ...overrides,
  });
  return { kept, compute, log, fail: (on: boolean) => (failing = on) };
}

describe("createKeptResult", () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_800_000_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("answers the first request from the result computed at start, without computing again", async () => {
    let listed!: () => void;
    const { kept, compute } = keptCounter({ ready: () => new Promise<void>((resolve) => (listed = resolve)) });
    kept.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(compute).not.toHaveBeenCalled(); // waits for the fleet's first list
    listed();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(compute).toHaveBeenCalledTimes(1);
    expect(await kept.get()).toEqual({ value: 1, refreshing: false, refreshError: null });
    expect(compute).toHaveBeenCalledTimes(1);
    kept.stop();
  });

  it("keeps the result recent in the background while it is asked for, one computation at a time", async () => {
    const { kept, compute } = keptCounter();
    kept.start();
    await vi.advanceTimersByTimeAsync(0);
    for (let minute = 0; minute < 5; minute++) {
      await vi.advanceTimersByTimeAsync(60_000);
      const { value } = await kept.get();
      // Every answer is a result computed in the background less than a refresh period ago.
      expect(value).toBe(compute.mock.calls.length);
    }
    expect(compute.mock.calls.length).toBeGreaterThanOrEqual(10);
    kept.stop();
  });

  it("never answers a result older than the stale bound: after an idle spell the request waits for a new one", async () => {
    const { kept, compute } = keptCounter();
    kept.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(IDLE + 5 * EVERY);
    const before = compute.mock.calls.length;
    const { value } = await kept.get();
    expect(value).toBe(before + 1);
    kept.stop();
  });

  it("stops querying when nobody asked for the result lately, and resumes on the next request", async () => {
    const { kept, compute } = keptCounter();
    kept.start();
    await vi.advanceTimersByTimeAsync(IDLE + EVERY);
    const whenIdle = compute.mock.calls.length;
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(compute).toHaveBeenCalledTimes(whenIdle);
    await kept.get();
    await vi.advanceTimersByTimeAsync(3 * EVERY);
    expect(compute.mock.calls.length).toBeGreaterThan(whenIdle + 2);
    kept.stop();
  });

  it("stops refreshing on stop", async () => {
    const { kept, compute } = keptCounter();
    kept.start();
    await vi.advanceTimersByTimeAsync(2 * EVERY);
    kept.stop();
    const stopped = compute.mock.calls.length;
    await vi.advanceTimersByTimeAsync(10 * EVERY);
    expect(compute).toHaveBeenCalledTimes(stopped);
  });

  it("keeps the last good result after a failed refresh, marked with the error, and logs the failure once", async () => {
    const { kept, log, fail } = keptCounter();
    kept.start();
    await vi.advanceTimersByTimeAsync(0);
    fail(true);
    await vi.advanceTimersByTimeAsync(EVERY + 1);
    expect(await kept.get()).toMatchObject({ value: 1, refreshError: "Prometheus answered 503" });
    // A request 10 s later retries (and fails again): still the last good result, the failure logged once.
    await vi.advanceTimersByTimeAsync(10_000);
    await kept.get();
    await vi.advanceTimersByTimeAsync(0);
    expect(await kept.get()).toMatchObject({ value: 1, refreshError: "Prometheus answered 503" });
    expect(log).toHaveBeenCalledTimes(1);
    fail(false);
    await vi.advanceTimersByTimeAsync(EVERY);
    expect(await kept.get()).toMatchObject({ value: 2, refreshError: null });
    // Past the stale bound while failing, the failure is the request's: no old result is answered.
    fail(true);
    await vi.advanceTimersByTimeAsync(STALE + 1);
    await expect(kept.get()).rejects.toThrow("Prometheus answered 503");
    kept.stop();
  });
});
