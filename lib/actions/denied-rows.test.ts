import { describe, expect, it } from "vitest";
import { DENIED_ROWS_PER_MINUTE, DeniedRowLimiter } from "./denied-rows";

describe("DeniedRowLimiter", () => {
  it("writes the first denied attempts of a minute per user, counts the rest into the next row written", () => {
    const limiter = new DeniedRowLimiter();
    const t0 = 1_000_000;
    const verdicts = Array.from({ length: 25 }, (_, i) => limiter.admit("mallory", t0 + i));
    expect(verdicts.filter((v) => v.record)).toHaveLength(DENIED_ROWS_PER_MINUTE);
    // Another user is not held back by mallory.
    expect(limiter.admit("alice", t0 + 30)).toEqual({ record: true, note: "" });
    const next = limiter.admit("mallory", t0 + 60_000);
    expect(next).toEqual({ record: true, note: " (and 15 more denied attempts by this user before it, not written one by one)" });
    expect(limiter.admit("mallory", t0 + 60_001)).toEqual({ record: true, note: "" });
  });
});
