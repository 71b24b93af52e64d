import { describe, expect, it } from "vitest";
import { mayReadAuditLog } from "./audit-readers";

const authorization = { impersonate: true, clusters: {}, roleMappings: [], auditReaders: { users: ["erin"], groups: ["auditors"] } };
const user = (name: string, groups: string[], via: "none" | "proxy" = "proxy") => ({ via, name, groups, sessionId: null });

describe("mayReadAuditLog", () => {
  it("opens the log to the listed users and groups only, and to everyone without sign-in", () => {
    expect(mayReadAuditLog(authorization, user("erin", []))).toBe(true);
    expect(mayReadAuditLog(authorization, user("frank", ["devs", "auditors"]))).toBe(true);
    expect(mayReadAuditLog(authorization, user("bob", ["viewers"]))).toBe(false);
    expect(mayReadAuditLog({ ...authorization, auditReaders: { users: [], groups: [] } }, user("erin", ["auditors"]))).toBe(false);
    expect(mayReadAuditLog({ ...authorization, auditReaders: { users: [], groups: [] } }, user("anonymous", [], "none"))).toBe(true);
  });
});
