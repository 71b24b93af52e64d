import { describe, expect, it } from "vitest";
import { combineAccess, describeAccess, rolloutAccessAttributes, type RolloutAccess } from "./rollout-access";

describe("rollout action access", () => {
  it("asks for get + patch on rollouts and patch on rollouts/status, by name", () => {
    expect(rolloutAccessAttributes("patchStatus", "shop", "checkout")).toStrictEqual({
      verb: "patch",
      group: "argoproj.io",
      resource: "rollouts",
      subresource: "status",
      namespace: "shop",
      name: "checkout",
    });
    expect(rolloutAccessAttributes("get", "shop", "checkout").verb).toBe("get");
  });

  it("allows each action only when all of its requests are allowed", () => {
    const statusOnly = combineAccess(new Set<RolloutAccess>(["patchStatus"]), (m) => `may not ${describeAccess(m)}`);
    expect(statusOnly.abort).toStrictEqual({ allowed: true });
    expect(statusOnly.retry).toStrictEqual({ allowed: true });
    expect(statusOnly.promote).toStrictEqual({ allowed: false, reason: "may not get rollouts" });
    expect(statusOnly.pause).toStrictEqual({ allowed: false, reason: "may not patch rollouts" });
    expect(
      combineAccess(new Set<RolloutAccess>(["get", "patch", "patchStatus"]), (m) => `may not ${describeAccess(m)}`)["set-image"],
    ).toStrictEqual({
      allowed: false,
      reason: "may not update rollouts",
    });
    const all = combineAccess(new Set<RolloutAccess>(["get", "patch", "patchStatus", "update"]), () => "");
    expect(Object.values(all).every((p) => p.allowed)).toBe(true);
    const none = combineAccess(new Set<RolloutAccess>(), (m) => m);
    expect(Object.values(none).every((p) => !p.allowed)).toBe(true);
  });
});
