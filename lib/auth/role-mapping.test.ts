import { describe, expect, it } from "vitest";
import { mappedReadScope, resolveMappedRole, usesImpersonation } from "./role-mapping";

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
    const authorization = {
      impersonate: true,
      clusters: { legacy: { impersonate: false } },
      roleMappings: [],
      auditReaders: { users: [], groups: [] },
    };
    expect(usesImpersonation(authorization, "prod")).toBe(true);
    expect(usesImpersonation(authorization, "legacy")).toBe(false);
    expect(usesImpersonation({ ...authorization, impersonate: false }, "prod")).toBe(false);
  });
});

describe("mappedReadScope", () => {
  it('reads the namespaces where any of the user\'s groups has a role on the cluster; every one for "*"', () => {
    expect(mappedReadScope(["shop-oncall"], "prod", mappings)).toEqual({ kind: "namespaces", namespaces: new Set(["shop"]) });
    expect(mappedReadScope(["shop-oncall"], "staging", mappings)).toEqual({ kind: "none", error: null });
    expect(mappedReadScope(["shop-oncall", "viewers"], "prod", mappings)).toEqual({ kind: "all" });
    expect(mappedReadScope([], "prod", mappings)).toEqual({ kind: "none", error: null });
  });
});
