import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { T } from "@/sim/controller/resource-types";
import type { Rollout } from "@/sim/controller/types";

/** The demo fleet over real HTTP: kubeconfig, RBAC identities, and the failure profiles doing what they promise. */

let sim: SimulationHandle;

async function until(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await pred()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function rollouts(cluster: string): Rollout[] {
  return sim.cluster(cluster).store.list(T.rollouts).items as Rollout[];
}

async function api(cluster: string, token: string, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${sim.cluster(cluster).url}${path}`, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
}

beforeAll(async () => {
  sim = await startSimulation({ scenario: "demo", timeScale: 120, seed: 5 });
});

afterAll(async () => {
  await sim?.stop();
});

describe("demo simulation", () => {
  it("has three labelled clusters of 8–12 rollouts over several namespaces, with plugins, built-ins and blue-green", () => {
    expect(sim.clusters.map((c) => [c.name, c.labels.env])).toEqual([
      ["prod-eu", "production"],
      ["prod-us", "production"],
      ["staging", "staging"],
    ]);
    const routers = new Set<string>();
    for (const c of sim.clusters) {
      const items = rollouts(c.name);
      expect(items.length).toBeGreaterThanOrEqual(8);
      expect(items.length).toBeLessThanOrEqual(12);
      expect(new Set(items.map((r) => r.metadata.namespace)).size).toBeGreaterThanOrEqual(4);
      expect(items.some((r) => r.spec.strategy.blueGreen)).toBe(true);
      for (const r of items) {
        const tr = r.spec.strategy.canary?.trafficRouting;
        for (const key of Object.keys(tr?.plugins ?? {})) routers.add(key);
        if (tr?.istio) routers.add("istio");
        if (tr?.nginx) routers.add("nginx");
      }
    }
    expect([...routers].sort()).toEqual(
      [
        "argoproj-labs/contour",
        "argoproj-labs/gatewayAPI",
        "argoproj-labs/openshift",
        "hashicorp/consul",
        "istio",
        "nginx",
        "solo-io/glooplatform",
      ].sort(),
    );
  });

  it("writes one kubeconfig: a rollscope context and an admin context per cluster", () => {
    const config = parse(readFileSync(sim.kubeconfigPath, "utf8")) as {
      contexts: Array<{ name: string }>;
      users: Array<{ name: string; user: { token: string } }>;
    };
    expect(config.contexts.map((c) => c.name).sort()).toEqual([
      "prod-eu",
      "prod-eu-admin",
      "prod-us",
      "prod-us-admin",
      "staging",
      "staging-admin",
    ]);
    expect(config.users.find((u) => u.name === "prod-eu")?.user.token).toBe(sim.users.rollscope.token);
    expect(config.users.find((u) => u.name === "prod-eu-admin")?.user.token).toBe(sim.users.admin.token);
  });

  it("RBAC: rollscope reads and proxies, sre-operators patch status, viewers cannot", async () => {
    const path = "/apis/argoproj.io/v1alpha1/namespaces/shop/rollouts/checkout/status";
    const patch = {
      method: "PATCH",
      headers: { "Content-Type": "application/merge-patch+json" },
      body: JSON.stringify({ status: { abort: false } }),
    };
    expect((await api("prod-eu", sim.users.rollscope.token, "/apis/argoproj.io/v1alpha1/rollouts")).status).toBe(200);
    expect((await api("prod-eu", sim.users.bob.token, "/apis/argoproj.io/v1alpha1/rollouts")).status).toBe(200);
    expect((await api("prod-eu", sim.users.bob.token, path, patch)).status).toBe(403);
    expect((await api("prod-eu", sim.users.alice.token, path, patch)).status).toBe(200);
    expect(
      (
        await api(
          "prod-eu",
          sim.users.rollscope.token,
          "/api/v1/namespaces/argo-rollouts/services/argo-rollouts-metrics:8090/proxy/metrics",
        )
      ).status,
    ).toBe(200);
  });

  it("ships realistic argo-rollouts-config ConfigMaps and a controller Pod per cluster", () => {
    const data = (cluster: string) =>
      sim.cluster(cluster).store.get(T.configMaps, "argo-rollouts", "argo-rollouts-config").data as Record<string, string>;
    const plugins = (cluster: string) =>
      parse(data(cluster).trafficRouterPlugins) as Array<{ name: string; location: string; sha256?: string }>;
    expect(
      plugins("prod-eu").every(
        (p) =>
          /^https:\/\/github\.com\/argoproj-labs\/.+\/releases\/download\/.+/.test(p.location) && /^[0-9a-f]{64}$/.test(p.sha256 ?? ""),
      ),
    ).toBe(true);
    expect(plugins("prod-us").find((p) => p.name === "solo-io/glooplatform")?.sha256).toBeUndefined();
    expect(plugins("staging").find((p) => p.name === "argoproj-labs/openshift")?.location).toMatch(/^file:\/\//);
    expect(plugins("staging").some((p) => p.name === "hashicorp/consul")).toBe(false);
    for (const c of sim.clusters) {
      const pods = c.store.list(T.pods, { namespace: "argo-rollouts", labelSelector: "app.kubernetes.io/name=argo-rollouts" }).items;
      expect(pods).toHaveLength(1);
      expect(pods[0].metadata.name).toBe(c.controller.state.podName);
      expect(c.controller.state.status).toBe("Running");
    }
  });

  it("moves on its own and shows every failure profile", async () => {
    await until("new revisions in every cluster", () =>
      sim.clusters.every((c) => rollouts(c.name).some((r) => Number(r.metadata.annotations?.["rollout.argoproj.io/revision"]) > 2)),
    );
    await until("an indefinite pause waiting for promotion", () => {
      const checkout = rollouts("prod-eu").find((r) => r.metadata.name === "checkout");
      return checkout?.status?.phase === "Paused" && checkout.status.currentStepIndex === 5;
    });
    const log = (cluster: string) => sim.cluster(cluster).controller.eventLog;
    await until("flaky contour SetWeight in prod-eu", () =>
      log("prod-eu").some((e) => e.name === "catalog" && e.reason === "TrafficRoutingError"),
    );
    await until("the failing analysis in prod-us", () => log("prod-us").some((e) => e.name === "ledger" && e.reason === "RolloutAborted"));
    await until("the inconclusive analysis in staging", () =>
      rollouts("staging").some((r) => r.status?.message === "InconclusiveAnalysisRun"),
    );
    // consul is referenced but not registered in staging: reconcile errors, never an event about it.
    expect(await sim.cluster("staging").controller.metrics.reconcileErrorCount("platform", "notifications")).toBeGreaterThan(0);
    expect(log("staging").some((e) => e.name === "notifications" && e.type === "Warning")).toBe(false);
    // glooplatform is stuck in prod-us: weights are written and verified, traffic stays on stable.
    await until(
      "search-api canary weight in prod-us",
      () => (rollouts("prod-us").find((r) => r.metadata.name === "search-api")?.status?.canary?.weights?.canary.weight ?? 0) > 0,
    );
  });
});
