import { describe, expect, it } from "vitest";
import { rankPluginHealth, sortHealthWorstFirst } from "./health-rank";
import { healthView, withOutcome } from "./two-cluster-overview.test-helper";

const order = (views: ReturnType<typeof healthView>[]) => sortHealthWorstFirst(views).map((v) => `${v.plugin}@${v.cluster ?? "fleet"}`);

describe("rankPluginHealth", () => {
  it("is critical on a critical burn window, warning on a warning one or an affected Rollout, ok on clean calls", () => {
    expect(rankPluginHealth(healthView(withOutcome(0.7, ["critical", "warning"]))).level).toBe("critical");
    expect(rankPluginHealth(healthView(withOutcome(0.98, ["warning", "ok"]))).level).toBe("warning");
    const affected = [{ cluster: "prod-eu", namespace: "shop", name: "checkout", reasons: ["verified=false"] }];
    expect(rankPluginHealth(healthView({ ...withOutcome(1, ["ok", "ok"]), affected })).level).toBe("warning");
    expect(rankPluginHealth(healthView(withOutcome(1, ["ok", "ok"]))).level).toBe("ok");
    expect(rankPluginHealth(healthView()).level).toBe("no-data");
  });
});

describe("sortHealthWorstFirst", () => {
  it("puts the worst first, whatever the names' alphabetical order", () => {
    const views = [
      healthView({ plugin: "argoproj-labs/aaa", ...withOutcome(1, ["ok", "ok"]) }),
      healthView({ plugin: "argoproj-labs/bbb" }),
      healthView({ plugin: "zz/failing", ...withOutcome(0.7, ["critical", "critical"]) }),
      healthView({ plugin: "argoproj-labs/ccc", ...withOutcome(0.97, ["warning", "ok"]) }),
      healthView({ plugin: "yy/worse-warning", ...withOutcome(0.9, ["warning", "warning"]) }),
    ];
    expect(order(views)).toEqual([
      "zz/failing@prod-eu",
      "yy/worse-warning@prod-eu",
      "argoproj-labs/ccc@prod-eu",
      "argoproj-labs/aaa@prod-eu",
      "argoproj-labs/bbb@prod-eu",
    ]);
  });

  it("keeps a cluster's view ahead of the fleet-wide aggregate that repeats it", () => {
    const failing = withOutcome(0.7, ["critical", "critical"]);
    expect(order([healthView({ cluster: null, ...failing }), healthView({ cluster: "staging", ...failing })])).toEqual([
      "argoproj-labs/contour@staging",
      "argoproj-labs/contour@fleet",
    ]);
  });
});
