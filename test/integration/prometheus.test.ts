import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findPrometheus, startPrometheus, type PrometheusHandle } from "../harness/prometheus";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { Prng } from "@/sim/controller/prng";
import { T } from "@/sim/controller/resource-types";
import type { CanaryStep, Rollout } from "@/sim/controller/types";
import { analysisTemplates, namespaceObject, rollout, servicesFor, type RolloutBlueprint } from "@/sim/scenarios/builders";
import { pluginConfigMap, trafficPlugin } from "@/sim/scenarios/plugin-catalog";
import { bumpImage, type Scenario } from "@/sim/scenarios";
import type { KubeObject } from "@/sim/store/object-store";

/**
 * A real Prometheus scrapes the simulated controller; what PromQL says about rollout_events_total must match the
 * simulator's own events and transition log.
 */

const binary = findPrometheus();
if (!binary)
  console.log(
    "skipping prometheus.test.ts: no Prometheus binary (apt-get install -y --no-install-recommends prometheus, or set PROMETHEUS_BIN)",
  );

const NS = "shop";
const STEPS: CanaryStep[] = [{ setWeight: 20 }, { pause: { duration: "30s" } }, { setWeight: 60 }, { pause: { duration: "30s" } }];

function blueprint(name: string, router: RolloutBlueprint["router"]): RolloutBlueprint {
  return { namespace: NS, name, version: "1.0.0", replicas: 3, router, steps: STEPS };
}

const BLUEPRINTS = [
  blueprint("checkout", { plugin: "argoproj-labs/gatewayAPI", config: { httpRoute: "checkout" } }),
  blueprint("catalog", { plugin: "argoproj-labs/contour", config: { httpProxies: ["catalog"] } }),
  blueprint("cart", { istio: { virtualService: "cart-vsvc" } }),
];

function scenario(): Scenario {
  const objects: KubeObject[] = [
    namespaceObject("argo-rollouts"),
    pluginConfigMap("argo-rollouts", { trafficRouterPlugins: [trafficPlugin("gatewayAPI"), trafficPlugin("contour")] }),
    namespaceObject(NS),
    ...analysisTemplates(NS),
  ];
  for (const bp of BLUEPRINTS) objects.push(...servicesFor(bp), rollout(bp));
  return {
    name: "prometheus-test",
    clusters: [
      { name: "prom-test", labels: { env: "test" }, objects, pluginProfiles: { "argoproj-labs/contour": { setWeightFailureRate: 0.5 } } },
    ],
  };
}

async function until(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!binary)("Prometheus scraping the simulated controller", () => {
  let sim: SimulationHandle;
  let prom: PrometheusHandle;

  beforeAll(async () => {
    sim = await startSimulation({ scenario: scenario(), timeScale: 60, seed: 3, drive: false });
    const cluster = sim.clusters[0];
    await until("initial deploys", () =>
      BLUEPRINTS.every((bp) => (cluster.store.get(T.rollouts, NS, bp.name) as Rollout).status?.phase === "Healthy"),
    );
    prom = await startPrometheus({ targets: [{ job: "argo-rollouts", url: cluster.metricsUrl, labels: { cluster: cluster.name } }] });
  });

  afterAll(async () => {
    await prom?.stop();
    await sim?.stop();
  });

  it("rollout_events_total in PromQL equals the simulator's events and transition log", async () => {
    const cluster = sim.clusters[0];
    const prng = new Prng(9);
    for (const bp of BLUEPRINTS) bumpImage(cluster.store, NS, bp.name, prng);
    await until("every rollout completes revision 2", () =>
      BLUEPRINTS.every((bp) => {
        const ro = cluster.store.get(T.rollouts, NS, bp.name) as Rollout;
        return (
          ro.metadata.annotations?.["rollout.argoproj.io/revision"] === "2" &&
          ro.status?.phase === "Healthy" &&
          ro.status.stableRS === ro.status.currentPodHash &&
          ro.status.canary?.weights?.canary.weight === 0
        );
      }),
    );
    const own = await cluster.controller.metrics.eventCount({ reason: "TrafficWeightUpdated" });
    await until(
      "Prometheus to catch up",
      async () => (await prom.queryValue('sum(rollout_events_total{reason="TrafficWeightUpdated"})')) === own,
      15_000,
    );

    // The Events API may hold fewer (the EventCorrelator dedups and spam-filters); the counter and the log do not.
    const log = cluster.controller.eventLog.filter((e) => e.reason === "TrafficWeightUpdated");
    expect(log).toHaveLength(own);
    const stored = cluster.store
      .list(T.events, { namespace: NS })
      .items.filter((e) => e.reason === "TrafficWeightUpdated")
      .reduce((n, e) => n + Number(e.count ?? 1), 0);
    expect(stored).toBeLessThanOrEqual(own);

    const byName = await prom.query('sum by (name) (rollout_events_total{reason="TrafficWeightUpdated", cluster="prom-test"})');
    for (const bp of BLUEPRINTS) {
      const fromProm = Number(byName.find((s) => s.metric.name === bp.name)?.value[1] ?? 0);
      expect(fromProm).toBe(log.filter((e) => e.name === bp.name).length);
      // Every event that carries a weight ("to N", "from A to B") is a canary-weight change written into status.
      const weightEvents = log.filter((e) => e.name === bp.name && /updated (from \d+ )?to \d+$/.test(e.message)).length;
      const entries = cluster.controller.transitions.for(NS, bp.name);
      let changes = 0;
      for (let i = 0; i < entries.length; i++) {
        if (entries[i].canaryWeight !== null && entries[i].canaryWeight !== (i === 0 ? null : entries[i - 1].canaryWeight)) changes++;
      }
      expect(weightEvents, bp.name).toBe(changes);
      expect(changes).toBeGreaterThanOrEqual(5);
    }
  });

  it("plugin failures show as TrafficRoutingError events and rollout_reconcile_error; plugins have no traffic_router label", async () => {
    const cluster = sim.clusters[0];
    const own = await cluster.controller.metrics.eventCount({ name: "catalog", reason: "TrafficRoutingError" });
    expect(own).toBeGreaterThan(0);
    // The flaky plugin keeps failing, so the counter keeps moving: Prometheus must reach the count read above and
    // never exceed what the simulator has counted by the time of the query.
    await until(
      "Prometheus to catch up",
      async () => {
        const seen = await prom.queryValue('sum(rollout_events_total{name="catalog", reason="TrafficRoutingError", type="Warning"})');
        const now = await cluster.controller.metrics.eventCount({ name: "catalog", reason: "TrafficRoutingError" });
        return seen !== null && seen >= own && seen <= now;
      },
      15_000,
    );
    expect(await prom.queryValue('sum(rollout_reconcile_error{name="catalog"})')).toBeGreaterThanOrEqual(own);
    expect(await prom.queryValue('sum(rollout_events_total{name="checkout", reason="TrafficRoutingError"})')).toBeNull();
    // An empty label is no label to Prometheus: plugin-routed rollouts match traffic_router="".
    const plugins = await prom.query('rollout_info{traffic_router=""}');
    expect(plugins.map((s) => s.metric.name).sort()).toEqual(["catalog", "checkout"]);
    expect(await prom.queryValue('rollout_info{name="cart", traffic_router="Istio", strategy="canary"}')).toBe(1);
    expect(await prom.queryValue('count(rollout_reconcile_bucket{le="0.01"})')).toBe(3);
    expect(await prom.queryValue('argo_rollouts_controller_info{version=~"v1.9.1.*"}')).toBe(1);
  });

  it("mesh traffic series exist for both sides of a canary, and the metrics Service is reachable through the API server proxy", async () => {
    const cluster = sim.clusters[0];
    // A canary of its own. At 60× time its steps last about a second in all, shorter than the simulator's 2-s
    // traffic sampling: the simulator serves the requests up to each weight change before applying it, so even
    // this short canary gets its share (before, it got none when both samples fell outside it).
    bumpImage(cluster.store, NS, "checkout", new Prng(21));
    // The series appear once the mesh has sent traffic to each side and Prometheus has scraped it (1 s interval);
    // max_over_time still finds a series that has since gone stale.
    for (const service of ["checkout-canary", "cart-stable"]) {
      await until(
        `Prometheus to hold mesh traffic to ${service}`,
        async () =>
          ((await prom.queryValue(
            `sum(max_over_time(istio_requests_total{reporter="source", destination_service_name="${service}"}[10m]))`,
          )) ?? 0) > 0,
        30_000,
      );
    }
    const res = await fetch(`${cluster.url}/api/v1/namespaces/argo-rollouts/services/argo-rollouts-metrics:8090/proxy/metrics`, {
      headers: { Authorization: `Bearer ${sim.users.rollscope.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("rollout_info{");
  });
});
