import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { Prng } from "../controller/prng";
import type { AppliedRoute } from "../controller/traffic-routers";
import type { Rollout } from "../controller/types";
import { ServiceTrafficSimulator } from "./service-traffic";

function canaryRollout(): Rollout {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "checkout", namespace: "shop" },
    spec: {
      replicas: 3,
      strategy: {
        canary: {
          canaryService: "checkout-canary",
          stableService: "checkout-stable",
          trafficRouting: { istio: { virtualService: { name: "vs" } } },
          steps: [],
        },
      },
    },
    status: { stableRS: "aaa" },
  } as unknown as Rollout;
}

function route(measuredWeight: number, canaryHash: string): AppliedRoute {
  return { weight: measuredWeight, measuredWeight, canaryHash, stableHash: "aaa", headerRoutes: [], mirrorRoutes: [] };
}

async function canaryRequests(registry: Registry): Promise<number> {
  const metric = await registry.getSingleMetric("istio_requests_total")!.get();
  return metric.values.filter((v) => v.labels.destination_service_name === "checkout-canary").reduce((n, v) => n + v.value, 0);
}

describe("ServiceTrafficSimulator", () => {
  it("gives a canary step shorter than the sampling interval its share of the requests", async () => {
    let now = 1_000_000;
    let applied = route(0, "");
    const ro = canaryRollout();
    const registry = new Registry();
    const traffic = new ServiceTrafficSimulator(registry, { rollouts: () => [ro], applied: () => applied }, new Prng(1), () => now);
    traffic.advance();
    // The router applies 20 %, and 500 ms later (well inside one 2-s sampling interval) the canary is promoted
    // and all traffic is back on the stable side before the next sample.
    now += 100;
    traffic.serveUntilNow(ro);
    applied = route(20, "bbb");
    now += 500;
    traffic.serveUntilNow(ro);
    applied = route(0, "");
    now += 1_400;
    traffic.advance();
    const served = await canaryRequests(registry);
    // 20–119 requests/s at 20 % for half a second.
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(Math.ceil(119 * 0.5 * 0.3));
  });

  it("serves nothing to the canary while none is applied", async () => {
    let now = 1_000_000;
    const ro = canaryRollout();
    const registry = new Registry();
    const traffic = new ServiceTrafficSimulator(registry, { rollouts: () => [ro], applied: () => route(0, "") }, new Prng(1), () => now);
    traffic.advance();
    now += 2_000;
    traffic.advance();
    expect(await canaryRequests(registry)).toBe(0);
  });
});
