import { describe, expect, it } from "vitest";
import { StreamSlots } from "./stream-slots";

describe("StreamSlots", () => {
  it("grants up to the per-user cap, then up to the total, and a released slot is free again (once)", () => {
    const slots = new StreamSlots({ perUser: 2, total: 3 });
    const a1 = slots.acquire("a");
    const a2 = slots.acquire("a");
    expect([a1.granted, a2.granted]).toEqual([true, true]);
    expect(slots.acquire("a")).toMatchObject({ granted: false, reason: expect.stringMatching(/for this user/) });
    expect(slots.acquire("b").granted).toBe(true);
    expect(slots.acquire("c")).toMatchObject({ granted: false, reason: expect.stringMatching(/server has its 3/), retryAfterSeconds: 10 });
    if (a1.granted) {
      a1.release();
      a1.release();
    }
    expect(slots.count()).toBe(2);
    expect(slots.count("a")).toBe(1);
    expect(slots.acquire("c").granted).toBe(true);
    expect(slots.acquire("c").granted).toBe(false);
  });
});
