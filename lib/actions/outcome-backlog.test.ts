import { afterEach, describe, expect, it, vi } from "vitest";
import { OutcomeBacklog } from "./outcome-backlog";

afterEach(() => vi.useRealTimers());

describe("OutcomeBacklog", () => {
  it("writes a kept outcome again, with backoff, until the write succeeds, then forgets it", async () => {
    vi.useFakeTimers();
    let failuresLeft = 3;
    const stored: number[] = [];
    const backlog = new OutcomeBacklog(() => undefined);
    backlog.add({ id: 7, requestId: "r-7" }, async () => {
      if (failuresLeft-- > 0) throw new Error("database is locked");
      stored.push(7);
    });
    expect(backlog.size).toBe(1);
    // 1 s, 2 s, 4 s of failures, then stored at the fourth attempt.
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000 - 1);
    expect(stored).toEqual([]);
    await vi.advanceTimersByTimeAsync(9_000);
    expect(stored).toEqual([7]);
    expect(backlog.size).toBe(0);
  });
});
