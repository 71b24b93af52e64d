import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config/load-config";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRepositories } from "@/lib/db/repositories";
import { Fleet } from "@/lib/fleet/fleet";
import { Recorder } from "@/lib/recorder/recorder";
import { sampleSignature } from "@/lib/rollouts/recorded-sample";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { findResourceType } from "@/sim/resources";
import { buildRollscopeConfig } from "@/sim/rollscope-config";
import { waitFor } from "../harness/free-port";
import { findLostTransitions, STORED_STATES_SQL, type StoredState } from "../harness/lost-transitions";
import { createTestDatabase } from "../harness/test-database";

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
const TEST_ROLLOUTS = ["rec-a", "rec-b", "rec-c"];

let sim: SimulationHandle;
let fleet: Fleet;
let recorder: Recorder;
let db: PrismaClient;
const startRv = new Map<string, number>();

function tickAll(times: number): void {
  for (let i = 0; i < times; i++) for (const c of sim.clusters) c.controller.tick();
}

function promoteAll(): void {
  for (const c of sim.clusters) {
    for (const name of TEST_ROLLOUTS) {
      const ro = c.store.tryGet(rollouts, "shop", name);
      if (ro) c.store.patch(rollouts, "shop", name, "merge", { status: { pauseConditions: null } }, { subresource: "status" });
    }
  }
}

/** The fleet has caught up when every Rollout it shows has the store's current resourceVersion. */
async function waitForCatchUp(): Promise<void> {
  await waitFor(
    "the fleet to catch up with every cluster",
    async () =>
      sim.clusters.every((c) => {
        const stored = c.store.list(rollouts).items;
        const seen = fleet.cluster(c.name)!.rollouts();
        return (
          seen.length === stored.length &&
          stored.every((o) =>
            seen.some(
              (v) => v.name === o.metadata.name && v.namespace === o.metadata.namespace && v.resourceVersion === o.metadata.resourceVersion,
            ),
          )
        );
      }),
    20_000,
    50,
  );
}

beforeAll(async () => {
  await createTestDatabase();
  sim = await startSimulation({ scenario: "demo", timeScale: 60, seed: 11, drive: false, autoReconcile: false });
  tickAll(5);
  for (const c of sim.clusters) {
    for (const name of TEST_ROLLOUTS) {
      c.store.create(rollouts, "shop", {
        apiVersion: "argoproj.io/v1alpha1",
        kind: "Rollout",
        metadata: { name, namespace: "shop" },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: name } },
          template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "app", image: `example.com/${name}:1` }] } },
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
  }
  tickAll(5);
  // A Rollout's first revision is promoted at once (upstream); a second revision walks the canary steps.
  for (const c of sim.clusters) {
    for (const name of TEST_ROLLOUTS) {
      c.store.patch(rollouts, "shop", name, "merge", {
        spec: { template: { spec: { containers: [{ name: "app", image: `example.com/${name}:2` }] } } },
      });
    }
  }
  tickAll(5);
  const config = parseConfig(buildRollscopeConfig(sim.kubeconfigPath, sim.clusters), "test");
  fleet = new Fleet(config);
  db = createDbClient();
  recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 50 }, createRepositories(db));
  await recorder.start(fleet);
  await waitForCatchUp();
  for (const c of sim.clusters) startRv.set(c.name, Number(c.store.resourceVersion));
}, 60_000);

afterAll(async () => {
  await recorder?.stop();
  await fleet?.stop();
  await sim?.stop();
});

describe("recorder under watch faults", () => {
  it("records the transitions made while watches were dropped (resumed from the last resourceVersion)", async () => {
    for (let round = 0; round < 3; round++) {
      for (const c of sim.clusters) c.apiServer.faults.dropWatches();
      // Changes made while every watch is down: the resumed watch must replay them all.
      promoteAll();
      tickAll(3);
      await waitForCatchUp();
    }
  });

  // Changes made inside a 410 gap cannot be recovered from the API (a relist shows only the final state); the
  // watch relists at once to keep that gap short. This checks that relists lose and duplicate nothing after them.
  it("relists after a forced 410 and keeps recording", async () => {
    for (let round = 0; round < 2; round++) {
      // Watches down, the cluster moves on (an unrelated object), then compaction as etcd does it: every watch
      // resuming from its older resourceVersion gets 410 Expired and must relist.
      for (const c of sim.clusters) {
        c.apiServer.faults.dropWatches();
        c.store.ensureNamespace(`rec-bump-${round}`);
        c.store.compact();
      }
      const injectedAt = new Date().toISOString();
      await waitFor(
        "every cluster to relist",
        async () => fleet.clusterStates().every((s) => s.connection === "connected" && (s.watches.rollouts?.listedAt ?? "") > injectedAt),
        20_000,
      );
      promoteAll();
      tickAll(3);
      await waitForCatchUp();
    }
  });

  it("a Rollout deleted while the watch was down disappears after the reconnect", async () => {
    const c = sim.clusters[0];
    c.apiServer.faults.dropWatches();
    c.store.delete(rollouts, "shop", "rec-c");
    await waitForCatchUp();
    expect(fleet.cluster(c.name)!.rollout("shop", "rec-c")).toBeUndefined();
  });

  it("lost no transition of the simulator's log and stored no unchanged state twice", async () => {
    await recorder.flush();
    const rows = await db.$queryRawUnsafe<Array<StoredState & Parameters<typeof sampleSignature>[0]>>(STORED_STATES_SQL);
    const { compared, lost } = findLostTransitions(
      sim.clusters.map((c) => ({
        name: c.name,
        transitions: c.controller.transitions.entries,
        afterResourceVersion: startRv.get(c.name)!,
      })),
      rows,
    );
    expect(compared).toBeGreaterThan(40);
    expect(lost, `compared ${compared}`).toEqual([]);

    const last = new Map<string, string>();
    for (const row of rows) {
      const key = `${row.cluster}/${row.namespace}/${row.name}`;
      const signature = sampleSignature(row);
      expect(last.get(key), `unchanged state stored twice for ${key}`).not.toBe(signature);
      last.set(key, signature);
    }
  });
});
