import { describe, expect, it } from "vitest";
import { RolloutActionGuard } from "./action-guard";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("RolloutActionGuard", () => {
  it("runs the actions on one Rollout one after another, and those on different Rollouts side by side", async () => {
    const guard = new RolloutActionGuard();
    const order: string[] = [];
    const firstGate = deferred();
    const first = guard.runExclusive("prod/shop/checkout", async () => {
      order.push("first started");
      await firstGate.promise;
      order.push("first done");
    });
    const second = guard.runExclusive("prod/shop/checkout", async () => void order.push("second started"));
    const other = guard.runExclusive("prod/shop/cart", async () => void order.push("other started"));
    await other;
    expect(order).toEqual(["first started", "other started"]);
    firstGate.resolve();
    await Promise.all([first, second]);
    expect(order).toEqual(["first started", "other started", "first done", "second started"]);
  });

  it("runs the next action after one that failed, and passes the failure to its caller", async () => {
    const guard = new RolloutActionGuard();
    const failed = guard.runExclusive("k", async () => {
      throw new Error("conflict");
    });
    const next = guard.runExclusive("k", async () => "ran");
    await expect(failed).rejects.toThrow("conflict");
    await expect(next).resolves.toBe("ran");
  });

  it("remembers the versions an action changed, per Rollout, the newest 50", () => {
    const guard = new RolloutActionGuard();
    for (let v = 1; v <= 51; v++) guard.rememberActed("a", String(v));
    expect(guard.hasActed("a", "1")).toBe(false);
    expect(guard.hasActed("a", "2")).toBe(true);
    expect(guard.hasActed("a", "51")).toBe(true);
    expect(guard.hasActed("b", "51")).toBe(false);
  });
});
