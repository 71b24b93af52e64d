import { describe, expect, it } from "vitest";
import { auditEntriesToCsv, csvCell } from "./csv";
import type { AuditEntryView } from "./schema";

const entry: AuditEntryView = {
  id: 7,
  at: "2026-11-30T01:02:03.000Z",
  user: "alice@example.com",
  groups: ["sre-operators", "viewers"],
  cluster: "prod",
  namespace: "shop",
  rollout: "checkout",
  action: "promote",
  before: {
    revision: 3,
    stepIndex: 5,
    totalSteps: 8,
    phase: "Paused",
    requestedPercent: 30,
    canaryPercent: 30,
    stablePercent: 70,
    resourceVersion: "918273",
  },
  after: null,
  outcome: "done",
  message: 'status patched, "main" patched',
  requestId: "req-1",
  clientAddress: "127.0.0.1",
};

describe("audit CSV", () => {
  it("quotes per RFC 4180 and defuses spreadsheet formulas", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
    expect(csvCell('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvCell("-1+2")).toBe("'-1+2");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(null)).toBe("");
  });

  it("writes a header and one row per entry", () => {
    const csv = auditEntriesToCsv([entry, { ...entry, id: 8, before: null, message: null, clientAddress: null }]);
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,at,user,groups,cluster,namespace,rollout,action,outcome,message,revision,stepIndex,totalSteps,phase,requestedPercent,canaryPercent,stablePercent,resourceVersion,requestId,clientAddress",
    );
    expect(lines[1]).toBe(
      '7,2026-11-30T01:02:03.000Z,alice@example.com,sre-operators viewers,prod,shop,checkout,promote,done,"status patched, ""main"" patched",3,5,8,Paused,30,30,70,918273,req-1,127.0.0.1',
    );
    expect(lines[2]).toBe(
      "8,2026-11-30T01:02:03.000Z,alice@example.com,sre-operators viewers,prod,shop,checkout,promote,done,,,,,,,,,,req-1,",
    );
  });
});
