import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RolloutHistory } from "@/lib/rollouts/detail-types";
import { startSimulation, type SimulatedCluster, type SimulationHandle } from "@/sim/cluster";
import { findResourceType } from "@/sim/resources";
import { writeRollscopeConfig } from "@/sim/rollscope-config";
import { startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { waitFor } from "@/test/harness/free-port";
import { assertFreshBuild } from "@/test/harness/app-process";

/*
 * What changed while Rollscope was down is in the cluster when it starts again: the state it finds then is part of
 * the history. Each round stops the app, promotes a paused Rollout in the simulator, starts the app again and reads
 * the Rollout's history from the API. A Rollout that did not change gets no new point from a restart.
 */

const rollouts = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;
const STEPS = [
  { setWeight: 10 },
  { pause: {} },
  { setWeight: 30 },
  { pause: {} },
  { setWeight: 50 },
  { pause: {} },
  { setWeight: 70 },
  { pause: {} },
];
const MOVED = "boot-moved";
const STILL = "boot-still";

let sim: SimulationHandle;
let cluster: SimulatedCluster;
let app: AppProcess;

type RolloutStatus = { currentStepIndex?: number; phase?: string };

function statusOf(name: string): RolloutStatus {
  return ((cluster.store.tryGet(rollouts, "shop", name) as { status?: RolloutStatus } | undefined)?.status ?? {}) as RolloutStatus;
}

function waitForPausedAt(name: string, stepIndex: number): Promise<true> {
  return waitFor(
    `${name} to pause at step ${stepIndex}`,
    async () => statusOf(name).currentStepIndex === stepIndex && statusOf(name).phase === "Paused",
  );
}

/** A canary Rollout whose second revision walks steps that each wait for a promotion. */
function createRollout(name: string): void {
  const template = (tag: number) => ({
    metadata: { labels: { app: name } },
    spec: { containers: [{ name: "app", image: `example.com/${name}:${tag}` }] },
  });
  cluster.store.create(rollouts, "shop", {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name, namespace: "shop" },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: template(1),
      strategy: {
        canary: {
          canaryService: `${name}-canary`,
          stableService: `${name}-stable`,
          trafficRouting: { plugins: { "argoproj-labs/gatewayAPI": { httpRoute: name } } },
          steps: STEPS,
        },
      },
    },
  });
}

/** `kubectl argo rollouts promote` on a Rollout paused at a step: clears its pause conditions. */
function promote(name: string): void {
  cluster.store.patch(rollouts, "shop", name, "merge", { status: { pauseConditions: null } }, { subresource: "status" });
}

async function history(name: string): Promise<RolloutHistory> {
  const res = await fetch(`${app.url}/api/clusters/${cluster.name}/rollouts/shop/${name}/history?range=1h`);
  expect(res.status).toBe(200);
  return (await res.json()) as RolloutHistory;
}

async function waitForStoredStep(name: string, stepIndex: number): Promise<void> {
  await waitFor(`the history of ${name} to show step ${stepIndex}`, async () =>
    (await history(name)).points.some((p) => p.stepIndex === stepIndex && p.phase === "Paused"),
  );
}

beforeAll(async () => {
  assertFreshBuild();
  sim = await startSimulation({ scenario: "demo", timeScale: 60, seed: 41, drive: false });
  cluster = sim.clusters[0];
  for (const name of [MOVED, STILL]) createRollout(name);
  await waitFor("the first revisions to become healthy", async () => [MOVED, STILL].every((name) => statusOf(name).phase === "Healthy"));
  for (const name of [MOVED, STILL]) {
    cluster.store.patch(rollouts, "shop", name, "merge", {
      spec: { template: { spec: { containers: [{ name: "app", image: `example.com/${name}:2` }] } } },
    });
  }
  await Promise.all([waitForPausedAt(MOVED, 1), waitForPausedAt(STILL, 1)]);
  const configPath = path.join(path.dirname(sim.kubeconfigPath), "rollscope.yaml");
  writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters);
  app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, env: { ROLLSCOPE_CONFIG: configPath } });
  await Promise.all([waitForStoredStep(MOVED, 1), waitForStoredStep(STILL, 1)]);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await sim?.stop();
});

describe("a Rollout changed while Rollscope was down", () => {
  it("has the state found at start-up in its history, every time", async () => {
    const stillPoints = (await history(STILL)).points.length;
    for (const step of [3, 5, 7]) {
      await app.stop();
      promote(MOVED);
      await waitForPausedAt(MOVED, step);
      await app.restart();
      await waitForStoredStep(MOVED, step);
    }
    expect((await history(STILL)).points).toHaveLength(stillPoints);
  }, 180_000);
});
