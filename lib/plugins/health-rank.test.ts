import { describe, expect, it } from "vitest";
import { rankPluginHealth, sortHealthWorstFirst } from "./health-rank";
import { healthView, withMeasured, withOutcome } from "./two-cluster-overview.test-helper";

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

  it("ranks by the meter's measured calls where they exist, not by the derived burn of controller-wide signals", () => {
    // Derived signals blame the router (reconcile errors of a Rollout's own), the meter saw every call succeed.
    const measuredClean = rankPluginHealth(healthView({ ...withOutcome(0.6, ["critical", "critical"]), ...withMeasured(500, 0) }));
    expect(measuredClean).toMatchObject({ level: "ok", successRate: 1, source: "measured" });
    // 3 failed of 100 against a 99 % SLO: 3× the budget, a warning; 20 of 100: 20×, critical.
    expect(rankPluginHealth(healthView({ ...withOutcome(1, ["ok", "ok"]), ...withMeasured(100, 3) })).level).toBe("warning");
    expect(rankPluginHealth(healthView({ ...withOutcome(1, ["ok", "ok"]), ...withMeasured(100, 20) })).level).toBe("critical");
    // No measured call in the range: the derived figures stand, labelled as such.
    expect(rankPluginHealth(healthView({ ...withOutcome(0.9, ["warning", "ok"]), ...withMeasured(0, 0) }))).toMatchObject({
      level: "warning",
      source: "derived",
    });
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
