import { describe, expect, it } from "vitest";
import { ReusedReads } from "./reused-reads";

/** A load that answers `value` (or fails) when told to, counting the reads. */
function controlledLoad() {
  const pending: Array<{ resolve: (value: string) => void; reject: (err: Error) => void }> = [];
  const load = () => new Promise<string>((resolve, reject) => pending.push({ resolve, reject }));
  return { load, pending, reads: () => pending.length };
}

const KEY = "prod-eu\ncontour:shop/a";

describe("ReusedReads", () => {
  it("answers from a read younger than the reuse window without reading again", async () => {
    const reads = new ReusedReads<string>(60_000, 180_000);
    expect(await reads.read(KEY, 1_000, async () => "first")).toEqual({ value: "first", atMs: 1_000 });
    let loads = 0;
    const again = await reads.read(KEY, 60_999, async () => (loads++, "second"));
    expect(again).toEqual({ value: "first", atMs: 1_000 });
    expect(loads).toBe(0);
  });

  it("answers an older read at once while one read replaces it in the background", async () => {
    const reads = new ReusedReads<string>(60_000, 180_000);
    await reads.read(KEY, 0, async () => "old");
    const { load, pending, reads: count } = controlledLoad();
    // Past the reuse window: the old value now, one read started, however many ask meanwhile.
    expect(await reads.read(KEY, 70_000, load)).toEqual({ value: "old", atMs: 0 });
    expect(await reads.read(KEY, 75_000, load)).toEqual({ value: "old", atMs: 0 });
    expect(count()).toBe(1);
    pending[0].resolve("new");
    await Promise.resolve();
    await Promise.resolve();
    expect(await reads.read(KEY, 80_000, load)).toEqual({ value: "new", atMs: 70_000 });
    expect(count()).toBe(1);
  });

  it("keeps the older read when the background read fails, and waits for a read once that is past keeping", async () => {
    const reads = new ReusedReads<string>(60_000, 180_000);
    await reads.read(KEY, 0, async () => "old");
    const { load, pending } = controlledLoad();
    expect((await reads.read(KEY, 70_000, load)).value).toBe("old");
    pending[0].reject(new Error("Prometheus is down"));
    await new Promise((resolve) => setImmediate(resolve));
    const down = () => Promise.reject(new Error("Prometheus is down"));
    expect((await reads.read(KEY, 90_000, down)).value).toBe("old");
    await new Promise((resolve) => setImmediate(resolve));
    // Too old to show: the caller waits, and sees the failure.
    await expect(reads.read(KEY, 180_000, down)).rejects.toThrow("Prometheus is down");
  });

  it("reads a new key at once, sharing a read under way with callers of the same key", async () => {
    const reads = new ReusedReads<string>(60_000, 180_000);
    const { load, pending, reads: count } = controlledLoad();
    const first = reads.read(KEY, 0, load);
    const second = reads.read(KEY, 10, load);
    expect(count()).toBe(1);
    pending[0].resolve("burn");
    expect((await first).value).toBe("burn");
    expect((await second).value).toBe("burn");
  });

  it("drops reads past keeping when another is written, so new keys do not pile up", async () => {
    const reads = new ReusedReads<number>(20_000, 60_000);
    for (let i = 0; i < 100; i++) await reads.read(`key-${i}`, i * 10_000, async () => i);
    // Only the reads of the last minute are kept.
    expect(reads.size).toBe(6);
  });
});
