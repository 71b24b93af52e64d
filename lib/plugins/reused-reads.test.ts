import { describe, expect, it } from "vitest";
import { ReusedReads } from "./reused-reads";

describe("ReusedReads", () => {
  it("answers a read for its key until it is older than the reuse window", () => {
    const reads = new ReusedReads<string>(300_000);
    reads.set("prod-eu|contour:shop/a", "burn", 1_000);
    expect(reads.get("prod-eu|contour:shop/a", 1_000 + 299_999)).toBe("burn");
    expect(reads.get("prod-eu|contour:shop/a", 1_000 + 300_000)).toBeUndefined();
    expect(reads.get("prod-eu|contour:shop/b", 2_000)).toBeUndefined();
  });

  it("drops reads past the window when another is written, so new keys do not pile up", () => {
    const reads = new ReusedReads<number>(60_000);
    for (let i = 0; i < 100; i++) reads.set(`key-${i}`, i, i * 10_000);
    // Only the reads of the last minute are kept.
    expect(reads.size).toBe(6);
  });
});
