import { describe, expect, it } from "vitest";
import { labelsKey } from "./types";

/** The key as the first release computed it: stored series are keyed by it, so it must never change. */
const storedKey = (labels: Record<string, string>) =>
  JSON.stringify(Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b))));

describe("labelsKey", () => {
  it("is the key series were stored under, whatever order the labels come in", () => {
    const sets: Array<Record<string, string>> = [
      { namespace: "shop", name: "web", le: "+Inf" },
      { name: "web", namespace: "shop", le: "+Inf" },
      // localeCompare order differs from code-unit order here (case and underscores).
      { Zone: "a", zone: "b", _hidden: "c", a_b: "d", aB: "e", "": "f" },
      { msg: 'a "quoted"\nvalue\\', unicode: "ünï" },
      { a: undefined as unknown as string, b: "x", c: undefined as unknown as string },
      {},
    ];
    for (const labels of sets) expect(labelsKey(labels)).toBe(storedKey(labels));
    // Twice: the second call takes the cached order.
    for (const labels of sets) expect(labelsKey(labels)).toBe(storedKey(labels));
    expect(labelsKey({ namespace: "shop", name: "web" })).toBe('{"name":"web","namespace":"shop"}');
  });

  it("keeps JSON's order for index-like names", () => {
    const labels = { b: "1", "10": "x", "2": "y", a: "z" };
    expect(labelsKey(labels)).toBe(storedKey(labels));
  });
});
