import { describe, expect, it } from "vitest";
import { summarizePlugins } from "./plugins-summary";
import { healthView, twoClusterOverview, withOutcome } from "./two-cluster-overview.test-helper";

describe("summarizePlugins", () => {
  const overview = twoClusterOverview();

  it("counts distinct plugins, clusters and findings by severity", () => {
    const summary = summarizePlugins(overview, null);
    expect(summary.clusters).toBe(2);
    expect(summary.plugins).toBe(new Set(overview.matrix.rows.map((r) => r.name)).size);
    const bySeverity = (s: string) => overview.findings.filter((f) => f.severity === s).length;
    expect(summary.findings).toEqual({ critical: bySeverity("critical"), warning: bySeverity("warning"), info: bySeverity("info") });
    expect(summary.findings.critical + summary.findings.warning).toBeGreaterThan(0);
    expect(summary.worst).toBeNull();
  });

  it("names the worst health in view", () => {
    const summary = summarizePlugins(overview, [
      healthView({ plugin: "a/fine", ...withOutcome(1, ["ok", "ok"]) }),
      healthView({ plugin: "z/broken", cluster: "prod-us", ...withOutcome(0.5, ["critical", "critical"]) }),
    ]);
    expect(summary.worst).toEqual({ plugin: "z/broken", cluster: "prod-us", level: "critical", successRate: 0.5 });
  });
});
