import { describe, expect, it } from "vitest";
import { describePluginPage } from "./plugin-page";
import { twoClusterOverview } from "./two-cluster-overview.test-helper";

describe("describePluginPage", () => {
  const overview = twoClusterOverview();

  it("lists each cluster's entry and flags drift when the location differs across clusters", () => {
    const page = describePluginPage(overview, "argoproj-labs/contour")!;
    expect(page.entries.map((e) => [e.cluster, e.state, e.sha256])).toEqual([
      ["prod-eu", "registered", true],
      ["prod-us", "registered", false],
    ]);
    expect(page.drift.drifting).toBe(true);
    expect(page.drift.locations).toHaveLength(2);
  });

  it("does not flag drift when every cluster registers the same entry", () => {
    expect(describePluginPage(overview, "argoproj-labs/openshift")!.drift.drifting).toBe(false);
  });

  it("lists the Rollouts that use it per cluster, and those that use it where it is not registered", () => {
    const contour = describePluginPage(overview, "argoproj-labs/contour")!;
    expect(contour.users.map((u) => [u.cluster, u.kind, u.namespace, u.name, u.registered])).toEqual([
      ["prod-eu", "Rollout", "shop", "storefront", true],
      ["prod-us", "Rollout", "shop", "storefront", true],
    ]);
    const slack = describePluginPage(overview, "acme/slack-notify")!;
    expect(slack.entries.every((e) => e.state === "referenced-not-registered")).toBe(true);
    expect(slack.users.every((u) => !u.registered)).toBe(true);
    expect(slack.findings.map((f) => f.kind)).toContain("referenced-not-registered");
  });

  it("keeps only the findings that name the plugin", () => {
    const page = describePluginPage(overview, "argoproj-labs/contour")!;
    expect(page.findings.length).toBeGreaterThan(0);
    expect(page.findings.every((f) => f.affected.some((a) => a.plugin === "argoproj-labs/contour"))).toBe(true);
  });

  it("is null for a plugin no cluster registers or references", () => {
    expect(describePluginPage(overview, "nobody/nothing")).toBeNull();
  });
});
