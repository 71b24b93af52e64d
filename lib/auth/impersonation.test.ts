import { describe, expect, it } from "vitest";
import { impersonableGroups } from "./impersonation";

describe("impersonableGroups", () => {
  it("never passes system:masters", () => {
    expect(impersonableGroups(["sre", "system:masters", "viewers"])).toStrictEqual(["sre", "viewers"]);
  });

  it("drops the configured privileged groups too", () => {
    expect(impersonableGroups(["platform-admins", "sre"], ["platform-admins"])).toStrictEqual(["sre"]);
  });

  it("compares whole names only", () => {
    expect(impersonableGroups(["system:masters-readers", "masters"])).toStrictEqual(["system:masters-readers", "masters"]);
  });
});
