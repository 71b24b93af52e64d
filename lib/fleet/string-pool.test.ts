import { describe, expect, it } from "vitest";
import { StringPool } from "./string-pool";

describe("StringPool", () => {
  it("leaves every value as it was built (equal strings are shared, which only the heap can tell)", () => {
    const pool = new StringPool();
    const built = () => ({ name: `check${"out"}`, steps: [{ label: `Set weight ${10}%` }], conditions: [{ message: ["Rollout", "is", "paused"].join(" "), lastUpdateTime: "2026-08-18T09:43:00Z" }] });
    const first = pool.internAll(built());
    const second = pool.internAll(built());
    expect(second).toEqual(built());
    expect(first).toEqual(built());
  });

  it("starts over when full instead of growing", () => {
    const pool = new StringPool(2);
    pool.intern("a");
    pool.intern("b");
    pool.intern("c");
    expect((pool as unknown as { strings: Map<string, string> }).strings.size).toBe(1);
  });
});
