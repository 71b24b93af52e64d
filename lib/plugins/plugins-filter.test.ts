import { describe, expect, it } from "vitest";
import { DEFAULT_PLUGINS_FILTER, filterPluginsOverview, parsePluginsFilter, serializePluginsFilter } from "./plugins-filter";
import { twoClusterOverview } from "./two-cluster-overview.test-helper";

const params = (query: string) => new URLSearchParams(query);

describe("parsePluginsFilter", () => {
  it("reads cluster, plugin, kind and range from the URL", () => {
    expect(parsePluginsFilter(params("cluster=prod-eu&plugin=argoproj-labs/contour&kind=trafficRouter&range=6h"))).toEqual({
      cluster: "prod-eu",
      plugin: "argoproj-labs/contour",
      kind: "trafficRouter",
      range: "6h",
    });
    expect(parsePluginsFilter(params(""))).toEqual(DEFAULT_PLUGINS_FILTER);
  });

  it("drops an invalid parameter and keeps the valid ones", () => {
    expect(parsePluginsFilter(params("cluster=prod-us&plugin=no-slash&kind=router&range=5y"))).toEqual({
      ...DEFAULT_PLUGINS_FILTER,
      cluster: "prod-us",
    });
  });

  it("round-trips through the URL and leaves defaults out", () => {
    const filter = { cluster: "staging", plugin: "hashicorp/consul", kind: "trafficRouter" as const, range: "24h" as const };
    expect(parsePluginsFilter(params(serializePluginsFilter(filter)))).toEqual(filter);
    expect(serializePluginsFilter(DEFAULT_PLUGINS_FILTER)).toBe("");
  });
});

describe("filterPluginsOverview", () => {
  const overview = twoClusterOverview();

  it("limits registry, matrix and findings to one cluster", () => {
    const filtered = filterPluginsOverview(overview, { ...DEFAULT_PLUGINS_FILTER, cluster: "prod-us" });
    expect(filtered.clusters.map((c) => c.cluster)).toEqual(["prod-us"]);
    expect(filtered.matrix.clusters).toEqual(["prod-us"]);
    expect(filtered.findings.length).toBeGreaterThan(0);
    expect(filtered.findings.every((f) => f.affected.some((a) => a.cluster === "prod-us"))).toBe(true);
    expect(filtered.findings.length).toBeLessThan(overview.findings.length);
  });

  it("limits everything to one plugin, or to one kind", () => {
    const contour = filterPluginsOverview(overview, { ...DEFAULT_PLUGINS_FILTER, plugin: "argoproj-labs/contour" });
    expect(contour.matrix.rows.map((r) => r.name)).toEqual(["argoproj-labs/contour"]);
    expect(contour.clusters.flatMap((c) => c.plugins.map((p) => p.name))).toEqual(["argoproj-labs/contour", "argoproj-labs/contour"]);
    expect(contour.findings.every((f) => f.affected.some((a) => a.plugin === "argoproj-labs/contour"))).toBe(true);

    const steps = filterPluginsOverview(overview, { ...DEFAULT_PLUGINS_FILTER, kind: "step" });
    expect(new Set(steps.matrix.rows.map((r) => r.kind))).toEqual(new Set(["step"]));
    expect(steps.clusters.flatMap((c) => c.unregistered.map((u) => u.name))).toContain("acme/slack-notify");
    expect(steps.clusters.flatMap((c) => c.plugins).every((p) => p.kind === "step")).toBe(true);
  });
});
