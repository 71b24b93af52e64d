import { describe, expect, it } from "vitest";
import { StreamRegistry } from "./live-stream";

describe("StreamRegistry", () => {
  it("asks for every row while an overview is mounted, a cluster page's rows alone, and none for a detail page alone", () => {
    const registry = new StreamRegistry();
    const changes: string[] = [];
    registry.listen(() => changes.push(registry.current().id));
    expect(registry.current().rows).toBe("-");
    const focus = registry.registerFocus("prod/shop/checkout");
    expect(registry.current()).toMatchObject({ focus: ["prod/shop/checkout"], rows: "-" });
    const cluster = registry.registerRows("prod");
    const overview = registry.registerRows("*");
    expect(registry.current().rows).toBe("*");
    overview();
    expect(registry.current().rows).toEqual(["prod"]);
    cluster();
    focus();
    expect(registry.current()).toMatchObject({ focus: [], rows: "-" });
    expect(changes).toHaveLength(6);
  });

  it("counts registrations: a scope two components asked for stays until both are gone, and unregistering twice is harmless", () => {
    const registry = new StreamRegistry();
    const a = registry.registerFocus("prod/shop/checkout");
    const b = registry.registerFocus("prod/shop/checkout");
    a();
    a();
    expect(registry.current().focus).toEqual(["prod/shop/checkout"]);
    b();
    expect(registry.current().focus).toEqual([]);
    expect(registry.current().id).toBe(new StreamRegistry().current().id);
  });
});
