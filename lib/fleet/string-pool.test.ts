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

  it("gives equal nested values one shared frozen copy, and never confuses values JSON writes alike", () => {
    const pool = new StringPool();
    const view = () => ({ key: "a/b/c", steps: [{ kind: "setWeight", label: "Set weight 10%", state: "done" }], routers: [], ratio: { value: Number.NaN }, gone: { value: null }, missing: { value: undefined }, present: {}, byName: new Map([["x", 1]]) });
    const first = pool.internAll(view());
    const second = pool.internAll(view());
    expect(second.steps).toBe(first.steps);
    expect(Object.isFrozen(second.steps[0])).toBe(true);
    expect(Object.isFrozen(second)).toBe(false);
    expect(second.ratio.value).toBeNaN();
    expect(second.gone.value).toBeNull();
    expect("value" in second.missing).toBe(true);
    expect("value" in second.present).toBe(false);
    expect(second.byName.get("x")).toBe(1);
    expect(second).toStrictEqual(view());
  });

  it("starts over when full instead of growing", () => {
    const pool = new StringPool(2);
    pool.intern("a");
    pool.intern("b");
    pool.intern("c");
    expect((pool as unknown as { strings: Map<string, string> }).strings.size).toBe(1);
  });
});
