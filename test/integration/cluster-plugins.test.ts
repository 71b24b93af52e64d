import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadScope, FULL_READ_SCOPE } from "@/lib/auth/read-scope";
import { rollscopeConfigSchema } from "@/lib/config/schema";
import { Fleet } from "@/lib/fleet/fleet";
import { createPrometheusSource } from "@/lib/metrics/prometheus-source";
import type { AppContext } from "@/lib/server/app-context";
import { getClusterPlugins } from "@/lib/services/plugin-registry";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";

/*
 * The cluster page's plugins and controller (`GET /api/clusters/{cluster}/plugins`) against the demo simulator:
 * staging references hashicorp/consul without registering it; every cluster runs one controller Pod of
 * quay.io/argoproj/argo-rollouts:v1.9.1 and, like the real-cluster harness, no controller Deployment the API serves.
 */

let sim: SimulationHandle;
let fleet: Fleet;
let app: AppContext;
let workDir = "";

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "rollscope-cluster-plugins-"));
  sim = await startSimulation({ scenario: "demo", timeScale: 30, seed: 5, kubeconfigPath: path.join(workDir, "kubeconfig") });
  const config = rollscopeConfigSchema.parse({
    clusters: sim.clusters.map((c) => ({
      name: c.name,
      kubeconfig: { path: sim.kubeconfigPath, context: c.name },
      prometheus: { url: "http://127.0.0.1:9", timeoutMs: 1_000 },
    })),
  });
  fleet = new Fleet(config);
  const source = createPrometheusSource(config.clusters[0].prometheus!);
  // Only what getClusterPlugins reads: configuration, the fleet's watch caches, a metrics source and the clock.
  app = { config, fleet, metricsSource: () => source, now: Date.now } as unknown as AppContext;
}, 60_000);

afterAll(async () => {
  await fleet?.stop();
  await sim?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("getClusterPlugins", () => {
  it("lists what the cluster registers, who uses a plugin it does not register, and the controller's version and Pod", async () => {
    const result = await eventually(
      () => getClusterPlugins(app, { cluster: "staging", scope: FULL_READ_SCOPE }),
      (r) => r.controller.pods.length > 0 && r.registry.unregistered.length > 0,
    );
    expect(result.registry.configMap.present).toBe(true);
    expect(result.registry.plugins.length).toBeGreaterThan(0);
    const consul = result.registry.unregistered.find((u) => u.name === "hashicorp/consul");
    expect(consul?.usedBy.map((u) => `${u.namespace}/${u.name}`)).toContain("platform/notifications");

    expect(result.controller.version).toBe("v1.9.1");
    expect(result.controller.pods).toHaveLength(1);
    expect(result.controller.pods[0]).toMatchObject({ state: "Running", ready: true, phase: "Running" });
    expect(result.controller.pods[0].name).toMatch(/^argo-rollouts-/);
    expect(result.controller.deployment).toBeNull();
    expect(result.controller.deploymentNote).toMatch(/does not serve apps\/v1 Deployments/);
  }, 40_000);

  it("lists only the users the reader may read", async () => {
    const scope = createReadScope([["staging", { kind: "namespaces", namespaces: new Set(["shop"]) }]]);
    const result = await getClusterPlugins(app, { cluster: "staging", scope });
    const users = [...result.registry.plugins.flatMap((p) => p.usedBy), ...result.registry.unregistered.flatMap((u) => u.usedBy)];
    expect(users.every((u) => u.namespace === null || u.namespace === "shop")).toBe(true);
    expect(result.registry.unregistered.find((u) => u.name === "hashicorp/consul")).toBeUndefined();
    expect(result.controller.version).toBe("v1.9.1");
  });

  it("refuses a cluster that is not configured", async () => {
    await expect(getClusterPlugins(app, { cluster: "nowhere", scope: FULL_READ_SCOPE })).rejects.toMatchObject({ code: "not_found" });
  });
});
