import { describe, expect, it } from "vitest";
import { listConfigProblems } from "./template-check";

const badCanary = { canary: "sum(rate(x[${window}])", total: "sum(rate(x[${window}]))" };

describe("listConfigProblems", () => {
  it("names a fleet-wide template once, however many clusters inherit it", () => {
    const problems = listConfigProblems({ measuredTraffic: { templates: { generic: badCanary } } }, [
      { name: "prod-eu", plugins: { slo: { target: 0.9 } } },
      { name: "prod-us" },
    ]);
    expect(problems.map((p) => [p.cluster, p.template])).toEqual([[null, "plugins.measuredTraffic.templates.generic.canary"]]);
    expect(problems[0].message).toMatch(/is not valid PromQL/);
  });

  it("names a cluster's own broken template under the cluster", () => {
    const problems = listConfigProblems(undefined, [
      { name: "prod-eu", plugins: { perRpc: { successOutcomes: ["success"], promql: { calls: "sum(" } } } },
      { name: "prod-us" },
    ]);
    expect(problems.map((p) => [p.cluster, p.template])).toEqual([["prod-eu", "plugins.perRpc.promql.calls"]]);
  });

  it("finds nothing in the built-in templates", () => {
    expect(listConfigProblems(undefined, [{ name: "prod-eu" }])).toEqual([]);
  });
});
