import { describe, expect, it } from "vitest";
import { listPluginScopes, type PluginRollout } from "./plugin-scopes";

const rollout = (name: string, routers: PluginRollout["trafficRouters"]): PluginRollout => ({
  namespace: "shop",
  name,
  phase: "Healthy",
  message: "",
  trafficRouters: routers,
  attention: [],
  parseError: null,
});
const plugin = (name: string) => ({ kind: "plugin" as const, name });

const clusters = [
  {
    name: "prod-eu",
    rollouts: () => [
      rollout("storefront", [{ kind: "builtin", name: "Istio" }, plugin("b/zeta"), plugin("a/contour")]),
      rollout("checkout", [plugin("a/contour")]),
    ],
  },
  { name: "prod-us", rollouts: () => [rollout("search", [{ kind: "builtin", name: "Nginx" }])] },
  { name: "staging", rollouts: () => [rollout("storefront", [plugin("b/zeta")])] },
];

describe("listPluginScopes", () => {
  it("groups Rollouts by traffic-router plugin per cluster, plugins by name, ignoring built-in routers", () => {
    expect(listPluginScopes(clusters, {}).map((s) => [s.cluster, s.plugin, s.rollouts.map((r) => r.name)])).toEqual([
      ["prod-eu", "a/contour", ["storefront", "checkout"]],
      ["prod-eu", "b/zeta", ["storefront"]],
      ["staging", "b/zeta", ["storefront"]],
    ]);
  });

  it("narrows to one cluster and one plugin", () => {
    expect(listPluginScopes(clusters, { plugin: "b/zeta" }).map((s) => s.cluster)).toEqual(["prod-eu", "staging"]);
    expect(listPluginScopes(clusters, { cluster: "staging" }).map((s) => s.plugin)).toEqual(["b/zeta"]);
    expect(listPluginScopes(clusters, { cluster: "prod-us" })).toEqual([]);
  });
});
