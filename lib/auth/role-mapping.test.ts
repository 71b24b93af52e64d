import { describe, expect, it } from "vitest";
import { resolveMappedRole, usesImpersonation } from "./role-mapping";

const mappings = [
  { group: "viewers", role: "viewer" as const, clusters: ["*"], namespaces: ["*"] },
  { group: "shop-oncall", role: "operator" as const, clusters: ["prod"], namespaces: ["shop"] },
  { group: "sre", role: "operator" as const, clusters: ["*"], namespaces: ["*"] },
];

describe("resolveMappedRole", () => {
  it("picks the strongest role among the user's groups for the cluster and namespace", () => {
    expect(resolveMappedRole(["viewers", "shop-oncall"], "prod", "shop", mappings)).toBe("operator");
    expect(resolveMappedRole(["viewers", "shop-oncall"], "prod", "payments", mappings)).toBe("viewer");
    expect(resolveMappedRole(["shop-oncall"], "staging", "shop", mappings)).toBeNull();
    expect(resolveMappedRole(["sre"], "any", "any", mappings)).toBe("operator");
    expect(resolveMappedRole([], "prod", "shop", mappings)).toBeNull();
  });
});

describe("usesImpersonation", () => {
  it("takes the per-cluster override over the global setting", () => {
    const authorization = { impersonate: true, clusters: { legacy: { impersonate: false } }, roleMappings: [] };
    expect(usesImpersonation(authorization, "prod")).toBe(true);
    expect(usesImpersonation(authorization, "legacy")).toBe(false);
    expect(usesImpersonation({ ...authorization, impersonate: false }, "prod")).toBe(false);
  });
});
