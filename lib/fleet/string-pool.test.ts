import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { StringPool } from "./string-pool";

describe("StringPool", () => {
  it("leaves every value as it was built (equal strings are shared, which only the heap can tell)", () => {
    const pool = new StringPool();
    const built = () => ({
      name: `check${"out"}`,
      steps: [{ label: `Set weight ${10}%` }],
      conditions: [{ message: ["Rollout", "is", "paused"].join(" "), lastUpdateTime: "2026-08-18T09:43:00Z" }],
    });
    const first = pool.internAll(built());
    const second = pool.internAll(built());
    expect(second).toEqual(built());
    expect(first).toEqual(built());
  });

  it("gives equal nested values one shared frozen copy, and never confuses values JSON writes alike", () => {
    const pool = new StringPool();
    const view = () => ({
      key: "a/b/c",
      steps: [{ kind: "setWeight", label: "Set weight 10%", state: "done" }],
      routers: [],
      ratio: { value: Number.NaN },
      gone: { value: null },
      missing: { value: undefined },
      present: {},
      byName: new Map([["x", 1]]),
    });
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

  it("shares only values equal field by field, however their keys and texts are spelled", () => {
    const pool = new StringPool();
    const pairs: Array<[unknown, unknown]> = [
      [{ a: "1,b:2" }, { a: "1", b: "2" }],
      [{ "a:n1": 1 }, { a: 1 }],
      [{ a: "1" }, { a: 1 }],
      [{ a: true }, { a: "t" }],
      [{ a: [1, 2] }, { a: [12] }],
      [{ a: { b: 1 } }, { a: { b: "1" } }],
      [{ a: [{ b: 1 }] }, { a: [[{ b: 1 }]] }],
      [{ a: Object.freeze({ b: 1 }) }, { a: Object.freeze({ b: 2 }) }],
      [{ a: 0 }, { a: null }],
    ];
    for (const [left, right] of pairs) {
      const kept = pool.internAll({ v: left }).v;
      const other = pool.internAll({ v: right }).v;
      expect(other).not.toBe(kept);
      expect(other).toEqual(right);
    }
    const nested = () => ({ v: { steps: [{ label: "Pause", kind: "pause" }], weights: { canary: 10 } } });
    expect(pool.internAll(nested()).v).toBe(pool.internAll(nested()).v);
  });

  it("takes from the value an update replaces what did not change, and never what did", () => {
    // A pool that starts over at every second value: what is still shared is taken from the replaced value itself.
    const pool = new StringPool(1);
    const view = (weight: number, label = "Set weight 10%") => ({
      key: "c/shop/storefront",
      resourceVersion: String(1000 + weight),
      steps: [
        { kind: "setWeight", label },
        { kind: "pause", label: "Pause" },
      ],
      weights: { canary: weight, stable: 100 - weight },
      conditions: [{ type: "Progressing", lastUpdateTime: "2026-08-18T09:43:00Z" }],
    });
    const first = pool.internAll(view(10));
    const second = pool.internAll(view(20), first);
    expect(second.steps).toBe(first.steps);
    expect(second.weights).not.toBe(first.weights);
    expect(second.weights).toEqual({ canary: 20, stable: 80 });
    expect(second.key).toBe(first.key);
    expect(second).toStrictEqual(view(20));
    const relabelled = pool.internAll(view(20, "Set weight 15%"), second);
    expect(relabelled.steps).not.toBe(second.steps);
    expect(relabelled.steps[1]).toBe(second.steps[1]);
    expect(relabelled.steps[0]).toEqual({ kind: "setWeight", label: "Set weight 15%" });
    // The same fields in another order, or one more field, is another value.
    const reordered = pool.internAll({ weights: { stable: 80, canary: 20 } }, { weights: second.weights }).weights;
    expect(reordered).not.toBe(second.weights);
    expect(Object.keys(reordered)).toEqual(["stable", "canary"]);
    const widened = pool.internAll({ weights: { canary: 20, stable: 80, verified: true } }, { weights: second.weights }).weights;
    expect(widened).toEqual({ canary: 20, stable: 80, verified: true });
    expect(second.weights).toEqual({ canary: 20, stable: 80 });
  });

  it("starts over when full instead of growing", () => {
    const pool = new StringPool(2);
    pool.intern("a");
    pool.intern("b");
    pool.intern("c");
    expect((pool as unknown as { strings: Map<string, string> }).strings.size).toBe(1);
  });
});

describe("StringPool, on the heap", () => {
  // Equal strings compare equal whether shared or not: only the heap tells. 2,000 values each holding its own
  // 4 KiB copy of one text keep 8 MB when the copies are not shared and 4 KiB when they are.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  const text = (i: number) => Array.from({ length: 227 }, (_, k) => (k + i) % 1 || "condition message").join(" ");
  const heapKeptBy = (build: () => unknown) => {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept = build();
    gc();
    const used = process.memoryUsage().heapUsed - before;
    expect(kept).toBeDefined();
    return used;
  };

  it("keeps one copy of a text many values hold, interned alone or against the values they replace", () => {
    const pool = new StringPool();
    const fresh = heapKeptBy(() =>
      Array.from({ length: 2_000 }, (_, i) => ({ conditions: [{ message: text(i), lastUpdateTime: `t${i}` }] })),
    );
    const interned = heapKeptBy(() =>
      Array.from({ length: 2_000 }, (_, i) => pool.internAll({ conditions: [{ message: text(i), lastUpdateTime: `t${i}` }] })),
    );
    const first = Array.from({ length: 2_000 }, (_, i) => pool.internAll({ conditions: [{ message: text(i), lastUpdateTime: `t${i}` }] }));
    const updated = heapKeptBy(() =>
      first.map((previous, i) => pool.internAll({ conditions: [{ message: text(i), lastUpdateTime: `u${i}` }] }, previous)),
    );
    expect(fresh).toBeGreaterThan(6 * 1024 * 1024);
    expect(interned).toBeLessThan(fresh / 4);
    expect(updated).toBeLessThan(fresh / 4);
  });
});
