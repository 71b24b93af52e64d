import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { waitForRollout } from "@/test/harness/rollout-scenario";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import type { RolloutWorkload } from "@/lib/contracts/rollout-workload";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { Prng } from "@/sim/controller/prng";
import { findResourceTypeByKind } from "@/sim/resources";
import { bumpImage, type Scenario } from "@/sim/scenarios";
import { image, namespaceObject, rollout, servicesFor, type RolloutBlueprint } from "@/sim/scenarios/builders";
import { pluginConfigMap, trafficPlugin } from "@/sim/scenarios/plugin-catalog";

/*
 * A Rollout's Experiments on the detail page's revisions card (`GET …/replicasets`), as `kubectl argo rollouts get
 * rollout` shows them: each Experiment it owns by uid, with its ReplicaSets (template, images, pods) and the images
 * tagged `Σ:<template>`. A Rollout deleted and created again under its name does not inherit its predecessor's.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
const BLUEPRINT: RolloutBlueprint = {
  namespace: "shop",
  name: "reco",
  version: "1.0.0",
  replicas: 3,
  router: { plugin: "argoproj-labs/gatewayAPI", config: { httpRoute: "reco-route", namespace: "shop" } },
  steps: [
    { setWeight: 10 },
    {
      experiment: {
        duration: "1h",
        templates: [
          { name: "baseline", specRef: "stable" },
          { name: "canary", specRef: "canary" },
        ],
      },
    },
    { setWeight: 50 },
  ],
};
const ROLLOUTS = findResourceTypeByKind("argoproj.io/v1alpha1", "Rollout")!;

let sim: SimulationHandle;
let route: { GET: Handler<RolloutParams> };

function scenario(): Scenario {
  return {
    name: "experiments",
    clusters: [
      {
        name: "prod",
        labels: {},
        objects: [
          namespaceObject("argo-rollouts"),
          pluginConfigMap("argo-rollouts", { trafficRouterPlugins: [trafficPlugin("gatewayAPI")] }),
          namespaceObject("shop"),
          ...servicesFor(BLUEPRINT),
          rollout(BLUEPRINT),
        ],
      },
    ],
  };
}

async function workload(): Promise<RolloutWorkload> {
  // The route reads the Rollout the watch knows; a Rollout just created again may take a moment to be seen.
  let res: Response | null = null;
  for (let i = 0; i < 100 && res?.status !== 200; i++) {
    if (res) await delay(100);
    res = await readWorkload();
  }
  expect(res!.status).toBe(200);
  return (await res!.json()) as RolloutWorkload;
}

async function readWorkload(): Promise<Response> {
  return route.GET(new Request(`${ORIGIN}/api/clusters/prod/rollouts/shop/reco/replicasets`, { headers: { host: "127.0.0.1:3000" } }), {
    params: Promise.resolve({ cluster: "prod", namespace: "shop", name: "reco" }),
  });
}

beforeAll(async () => {
  sim = await startSimulation({ scenario: scenario(), drive: false, timeScale: 120 });
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  route = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets/route");
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("experiments on the revisions card", () => {
  it("lists the running experiment with its template ReplicaSets, their images and pods, tagged Σ:<template>", async () => {
    await waitForRollout(sim, "prod", "shop", "reco", "Healthy", (r) => r.status?.phase === "Healthy");
    expect(bumpImage(sim.cluster("prod").store, "shop", "reco", new Prng("experiments"))).toBeTruthy();
    const current = await waitForRollout(sim, "prod", "shop", "reco", "in its experiment step", (r) => r.status?.currentStepIndex === 1);
    const canaryImage = (current as unknown as { spec: { template: { spec: { containers: Array<{ image: string }> } } } }).spec.template
      .spec.containers[0].image;
    const stableImage = image("reco", "1.0.0");
    expect(canaryImage).not.toBe(stableImage);

    let info: RolloutWorkload["info"] | null = null;
    for (let i = 0; i < 200; i++) {
      const body = await workload();
      info = body.info;
      expect(body.experimentsError).toBeNull();
      if (info.experiments[0]?.replicaSets.every((rs) => rs.available === 1) && info.experiments[0].replicaSets.length === 2) break;
      await delay(100);
    }
    const [experiment] = info!.experiments;
    expect(experiment).toMatchObject({ status: "Running" });
    expect(experiment.name).toMatch(/^reco-[a-z0-9]+-2-1$/);
    expect(experiment.replicaSets.map((rs) => ({ template: rs.template, images: rs.images, pods: rs.pods.length }))).toEqual([
      { template: "baseline", images: [stableImage], pods: 1 },
      { template: "canary", images: [canaryImage], pods: 1 },
    ]);
    // As the CLI's Images section: the Rollout's own tags, then Σ:<template> merged in (sorted once an image repeats).
    const tags = Object.fromEntries(info!.images.map((i) => [i.image, i.tags]));
    expect(tags[stableImage]).toEqual(["stable", "Σ:baseline"].sort());
    expect(tags[canaryImage]).toEqual(["canary", "Σ:canary"].sort());
  }, 60_000);

  it("does not lend a deleted Rollout's experiments to the one created again under its name", async () => {
    const store = sim.cluster("prod").store;
    store.delete(ROLLOUTS, "shop", "reco");
    store.create(ROLLOUTS, "shop", rollout(BLUEPRINT));
    await waitForRollout(sim, "prod", "shop", "reco", "Healthy again", (r) => r.status?.phase === "Healthy");
    const body = await workload();
    expect(body.info.experiments).toEqual([]);
    expect(body.info.images.flatMap((i) => i.tags).filter((t) => t.startsWith("Σ:"))).toEqual([]);
  }, 60_000);
});
