import { setTimeout as delay } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/e2e/support/database";
import { writeRollscopeConfig } from "@/e2e/support/rollscope-config";
import { readRollout, startActionsSimulation, startCanary } from "@/e2e/support/rollout-scenario";
import type { RolloutWorkload } from "@/lib/contracts/rollout-workload";
import type { SimulationHandle } from "@/sim/cluster";

/*
 * `GET …/replicasets` against the simulator: the Rollout's ReplicaSets per revision with roles and Pods, and the
 * numbers `kubectl argo rollouts get rollout` prints, read from the cluster on each request.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
let sim: SimulationHandle;
let route: { GET: Handler<RolloutParams> };
let cachedVersion: (name: string) => string | null;

async function getWorkload(name: string): Promise<{ status: number; body: RolloutWorkload }> {
  const res = await route.GET(new Request(`${ORIGIN}/api/clusters/prod/rollouts/shop/${name}/replicasets`, { headers: { host: "127.0.0.1:3000" } }), {
    params: Promise.resolve({ cluster: "prod", namespace: "shop", name }),
  });
  return { status: res.status, body: (await res.json()) as RolloutWorkload };
}

async function waitForCache(name: string): Promise<void> {
  const simVersion = () => readRollout(sim, "prod", "shop", name).metadata.resourceVersion ?? null;
  for (let i = 0; i < 400 && cachedVersion(name) !== simVersion(); i++) await delay(50);
  expect(cachedVersion(name)).toBe(simVersion());
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  route = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets/route");
  const { getAppContext } = await import("@/lib/server/app-context");
  cachedVersion = (name) => getAppContext().fleet.cluster("prod")?.rollout("shop", name)?.resourceVersion ?? null;
});

afterAll(async () => {
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("GET …/replicasets", () => {
  it("shows a paused canary's two revisions with roles, replica counts and pods, and the CLI's step and weights", async () => {
    await startCanary(sim, "prod", "catalog");
    await waitForCache("catalog");
    let workload: RolloutWorkload | null = null;
    // Pods become ready on the simulator's clock: wait for the canary's pod to be available.
    for (let i = 0; i < 300; i++) {
      const { status, body } = await getWorkload("catalog");
      expect(status).toBe(200);
      workload = body;
      if (body.info.replicaSets[0]?.available === 1) break;
      await delay(100);
    }
    const info = workload!.info;
    expect(info).toMatchObject({ status: "Paused", message: "CanaryPauseStep", strategy: "Canary", step: "1/4", setWeight: 20, actualWeight: 20, revision: 2 });
    expect(info.replicaSets.map((rs) => ({ revision: rs.revision, roles: rs.roles, desired: rs.desired, pods: rs.pods.length }))).toEqual([
      { revision: 2, roles: ["canary"], desired: 1, pods: 1 },
      { revision: 1, roles: ["stable"], desired: 4, pods: 4 },
    ]);
    const pod = info.replicaSets[0].pods[0];
    expect(pod).toMatchObject({ status: "Running", ready: "1/1", restarts: 0 });
    expect(pod.node).toBeTruthy();
    expect(info.images.map((i) => i.tags)).toEqual(expect.arrayContaining([["canary"], ["stable"]]));
  }, 60_000);

  it("answers 404 for a Rollout the cluster does not have", async () => {
    expect((await getWorkload("no-such-rollout")).status).toBe(404);
  });
});
