import { describe, expect, it } from "vitest";
import { calculateWeightStatus, trafficWeightUpdatedMessage } from "./traffic-routing";
import { metricsTrafficRouter } from "./traffic-routers";
import type { Rollout, TrafficWeights } from "./types";

function ro(weights?: TrafficWeights, max?: number): Rollout {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "checkout" },
    spec: {
      template: {},
      strategy: {
        canary: {
          canaryService: "checkout-canary",
          stableService: "checkout-stable",
          trafficRouting: { plugins: { "argoproj-labs/gatewayAPI": {} }, ...(max ? { maxTrafficWeight: max } : {}) },
        },
      },
    },
    status: { canary: { weights } },
  };
}

describe("calculateWeightStatus", () => {
  it("stable = maxTrafficWeight − canary, services and hashes from the spec and ReplicaSets", () => {
    const { modified, weights } = calculateWeightStatus(ro(undefined, 1000), "new", "old", 250);
    expect(modified).toBe(true);
    expect(weights).toEqual({
      canary: { weight: 250, serviceName: "checkout-canary", podTemplateHash: "new" },
      stable: { weight: 750, serviceName: "checkout-stable", podTemplateHash: "old" },
    });
  });

  it("is unmodified when both sides match, whatever verified says", () => {
    const prev = {
      canary: { weight: 10, serviceName: "checkout-canary", podTemplateHash: "new" },
      stable: { weight: 90, serviceName: "checkout-stable", podTemplateHash: "old" },
      verified: false,
    };
    expect(calculateWeightStatus(ro(prev), "new", "old", 10).modified).toBe(false);
    expect(calculateWeightStatus(ro(prev), "newer", "old", 10).modified).toBe(true);
  });
});

describe("trafficWeightUpdatedMessage", () => {
  const w = (canary: number): TrafficWeights => ({ canary: { weight: canary }, stable: { weight: 100 - canary } });
  it("matches upstream's wording", () => {
    expect(trafficWeightUpdatedMessage(undefined, w(10))).toBe("Traffic weight updated to 10");
    expect(trafficWeightUpdatedMessage(w(10), w(30))).toBe("Traffic weight updated from 10 to 30");
    expect(trafficWeightUpdatedMessage(w(0), w(0))).toBe("Traffic weight updated ");
  });
});

describe("rollout_info traffic_router", () => {
  it("names built-ins only; plugins get the empty string", () => {
    const withRouting = (tr: Record<string, unknown>): Rollout => ({
      ...ro(),
      spec: { template: {}, strategy: { canary: { trafficRouting: tr } } },
    });
    expect(metricsTrafficRouter(withRouting({ plugins: { "argoproj-labs/gatewayAPI": {} } }))).toBe("");
    expect(metricsTrafficRouter(withRouting({ istio: {} }))).toBe("Istio");
    expect(metricsTrafficRouter(withRouting({ istio: {}, nginx: {} }))).toBe("Nginx");
    expect(metricsTrafficRouter(withRouting({ traefik: {} }))).toBe("");
  });
});
