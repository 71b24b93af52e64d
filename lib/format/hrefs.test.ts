import { describe, expect, it } from "vitest";
import { clusterHref, decodeSegment, overviewHref, rolloutHref, rolloutAuditHref } from "./hrefs";

describe("hrefs", () => {
  it("encodes each segment", () => {
    expect(rolloutHref("prod eu", "shop", "checkout")).toBe("/rollouts/prod%20eu/shop/checkout");
    expect(clusterHref("team/prod")).toBe("/clusters/team%2Fprod");
  });

  it("builds overview filters, dropping empty values", () => {
    expect(overviewHref({ cluster: "prod", phase: "Paused", q: "" })).toBe("/?cluster=prod&phase=Paused");
    expect(overviewHref()).toBe("/");
  });

  it("decodes route params once and tolerates bad escapes", () => {
    expect(decodeSegment("prod%20eu")).toBe("prod eu");
    expect(decodeSegment("checkout")).toBe("checkout");
    expect(decodeSegment("100%")).toBe("100%");
  });
});

describe("rolloutAuditHref", () => {
  it("filters the audit log by cluster, namespace and rollout, encoded", () => {
    expect(rolloutAuditHref("prod eu", "shop", "check&out")).toBe("/audit?cluster=prod+eu&namespace=shop&rollout=check%26out");
  });
});
