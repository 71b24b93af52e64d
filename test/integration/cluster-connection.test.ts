import { mkdtempSync } from "node:fs";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterConfigSchema } from "@/lib/config/schema";
import { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { startApiServer, type ApiServerHandle } from "@/sim/apiserver";
import { writeKubeconfig } from "@/sim/kubeconfig";
import { findResourceType } from "@/sim/resources";
import { ObjectStore } from "@/sim/store/object-store";
import { waitFor } from "@/test/harness/free-port";

/*
 * A cluster's headline connection against a real (simulated) API server: "partial" may read Rollouts, AnalysisRuns,
 * Events and ConfigMaps but not the controller's Pods, so one of its five watches is refused; "reader" may read all.
 * "flaky" points at a port that accepts connections and drops them at once.
 */

const READ = ["get", "list", "watch"];
let server: ApiServerHandle;
let dropper: net.Server;
let dropped = 0;
let kubeconfigPath = "";
const watchers: ClusterWatcher[] = [];

beforeAll(async () => {
  const store = new ObjectStore();
  store.ensureNamespace("shop");
  store.create(findResourceType("argoproj.io", "v1alpha1", "rollouts")!, "shop", {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "checkout", namespace: "shop" },
    spec: { replicas: 1, strategy: { canary: { steps: [{ setWeight: 20 }] } } },
  });
  server = await startApiServer({
    store,
    users: [
      { name: "partial", token: "partial-token", groups: [] },
      { name: "reader", token: "reader-token", groups: [] },
    ],
    rbac: [
      {
        subjects: [{ kind: "User", name: "partial" }],
        rules: [
          { verbs: READ, apiGroups: ["argoproj.io"], resources: ["rollouts", "analysisruns"] },
          { verbs: READ, apiGroups: [""], resources: ["events", "configmaps"] },
        ],
      },
      { subjects: [{ kind: "User", name: "reader" }], rules: [{ verbs: READ, apiGroups: ["*"], resources: ["*"] }] },
    ],
  });
  dropper = net.createServer((socket) => {
    dropped++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => dropper.listen(0, "127.0.0.1", resolve));
  kubeconfigPath = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-connection-")), "kubeconfig");
  writeKubeconfig(kubeconfigPath, [
    { name: "partial", server: server.url, token: "partial-token" },
    { name: "reader", server: server.url, token: "reader-token" },
    { name: "flaky", server: `http://127.0.0.1:${(dropper.address() as AddressInfo).port}`, token: "reader-token" },
  ]);
});

afterAll(async () => {
  await Promise.all(watchers.map((w) => w.stop()));
  await server?.stop();
  dropper?.close();
});

function watchCluster(context: string): ClusterWatcher {
  const watcher = new ClusterWatcher(clusterConfigSchema.parse({ name: context, kubeconfig: { path: kubeconfigPath, context } }), () => {});
  watchers.push(watcher);
  watcher.start();
  return watcher;
}

const settled = (state: ClusterStateView) =>
  Object.keys(state.watches).length === 5 && Object.values(state.watches).every((w) => w.status !== "connecting");

describe("a cluster's connection", () => {
  it("is not 'connected' while one of its watches is refused, even with the Rollouts listed", async () => {
    const watcher = watchCluster("partial");
    const state = await waitFor("every watch of the partial cluster to settle", async () =>
      settled(watcher.state()) ? watcher.state() : null,
    );
    expect(state.watches.rollouts?.status).toBe("connected");
    expect(state.rolloutCount).toBe(1);
    expect(state.watches.controllerPods?.status).toBe("forbidden");
    expect(state.connection).toBe("forbidden");
    expect(state.error).toMatch(/^controllerPods: .*pods/);
  });

  it("is 'connected' once every watch is", async () => {
    const watcher = watchCluster("reader");
    const state = await waitFor("every watch of the reader cluster to settle", async () =>
      settled(watcher.state()) ? watcher.state() : null,
    );
    expect(Object.values(state.watches).map((w) => w.status)).toEqual(Array(5).fill("connected"));
    expect(state).toMatchObject({ connection: "connected", error: null, rolloutCount: 1 });
  });

  it("stays unreachable since its first failure while the retries keep failing the same way", async () => {
    const watcher = watchCluster("flaky");
    const allDown = (state: ClusterStateView) => settled(state) && Object.values(state.watches).every((w) => w.status === "unreachable");
    const first = await waitFor("every watch of the flaky cluster to be unreachable", async () =>
      allDown(watcher.state()) ? watcher.state() : null,
    );
    const before = dropped;
    await waitFor("every watch to retry twice more", async () => dropped >= before + 10);
    const later = watcher.state();
    expect(later.connection).toBe("unreachable");
    const sinces = (state: ClusterStateView) => Object.values(state.watches).map((w) => w.since);
    expect(sinces(later)).toEqual(sinces(first));
    expect(later.since).toBe(first.since);
  });
});
