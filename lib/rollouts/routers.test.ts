import { describe, expect, it } from "vitest";
import { loadRolloutFixture } from "./fixtures.test-helper";
import { listPluginStepNames, listTrafficRouters } from "./routers";

describe("listTrafficRouters", () => {
  it("lists built-ins first, then plugin keys sorted", () => {
    expect(listTrafficRouters(loadRolloutFixture("plugin-and-builtin-router"))).toEqual([
      { kind: "builtin", name: "Istio" },
      { kind: "plugin", name: "argoproj-labs/contour" },
      { kind: "plugin", name: "argoproj-labs/gatewayAPI" },
    ]);
  });

  it.each([
    ["indefinite-pause", [{ kind: "plugin", name: "argoproj-labs/gatewayAPI" }]],
    ["max-traffic-weight-1000", [{ kind: "builtin", name: "Nginx" }]],
    ["unknown-future-fields", [{ kind: "plugin", name: "acme/mesh" }]],
    ["progress-deadline-exceeded", []],
    ["blue-green", []],
  ])("%s", (name, routers) => {
    expect(listTrafficRouters(loadRolloutFixture(name))).toEqual(routers);
  });

  it("orders every built-in the way the controller reconciles them", () => {
    const routers = listTrafficRouters({
      metadata: { name: "x" },
      spec: {
        strategy: {
          canary: {
            trafficRouting: {
              plugins: { "z/last": {}, "a/first": {} },
              apisix: {},
              traefik: {},
              appMesh: {},
              ambassador: { mappings: ["m"] },
              smi: {},
              alb: { ingress: "i" },
              nginx: { stableIngress: "s" },
              istio: {},
            },
          },
        },
      },
    });
    expect(routers.map((r) => r.name)).toEqual([
      "Istio",
      "Nginx",
      "ALB",
      "SMI",
      "Ambassador",
      "AppMesh",
      "Traefik",
      "Apisix",
      "a/first",
      "z/last",
    ]);
  });
});

describe("listPluginStepNames", () => {
  it("lists each step plugin once", () => {
    expect(listPluginStepNames(loadRolloutFixture("plugin-and-builtin-router"))).toEqual(["acme/slack-notify"]);
    expect(listPluginStepNames(loadRolloutFixture("indefinite-pause"))).toEqual([]);
  });
});
