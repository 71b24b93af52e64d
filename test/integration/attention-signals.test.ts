import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollscopeConfigSchema } from "@/lib/config/schema";
import { Fleet } from "@/lib/fleet/fleet";
import { DeltaLog } from "@/lib/live/delta-log";
import type { LiveDelta } from "@/lib/contracts/stream";
import { T } from "@/sim/controller/resource-types";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";

/**
 * The attention reasons that need the cluster around a Rollout, against the demo simulator through the real watch
 * path: staging's platform/notifications references hashicorp/consul, which staging's argo-rollouts-config does not
 * register; the simulated controller fails every reconcile of it without an event or a condition.
 */
let sim: SimulationHandle;
let fleet: Fleet;
let deltaLog: DeltaLog;
let workDir = "";
const deltas: LiveDelta[] = [];

const KEY = "staging/platform/notifications";
const codesOf = () =>
  fleet
    .cluster("staging")
    ?.rollout("platform", "notifications")
    ?.attention.map((a) => a.code) ?? [];

async function waitFor(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; reasons now: ${codesOf().join(", ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "rollscope-attention-it-"));
  sim = await startSimulation({ scenario: "demo", timeScale: 30, seed: 5, kubeconfigPath: path.join(workDir, "kubeconfig"), drive: false });
  const config = rollscopeConfigSchema.parse({
    clusters: sim.clusters.map((c) => ({ name: c.name, kubeconfig: { path: sim.kubeconfigPath, context: c.name } })),
  });
  fleet = new Fleet(config);
  deltaLog = new DeltaLog(fleet);
  deltaLog.subscribe(({ delta }) => deltas.push(delta));
});

afterAll(async () => {
  await fleet?.stop();
  await sim?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("attention reasons from the cluster around a Rollout", () => {
  it("flags the Rollout whose router plugin its cluster does not register, and streams it with its previous state", async () => {
    await waitFor(() => codesOf().includes("PluginNotRegistered"), "PluginNotRegistered on staging/platform/notifications");
    const row = deltaLog.rows().find((r) => r.key === KEY);
    expect(row?.attention.find((a) => a.code === "PluginNotRegistered")?.href).toBe(
      "/plugins#referenced-not-registered/staging/trafficRouter/hashicorp/consul",
    );
    // The real controller shows it Progressing with no condition: nothing here relies on one.
    expect(row?.phase).toBe("Progressing");
    // prod-eu registers hashicorp/consul: the same Rollout there is not flagged.
    expect(
      fleet
        .cluster("prod-eu")
        ?.rollout("platform", "notifications")
        ?.attention.map((a) => a.code),
    ).not.toContain("PluginNotRegistered");
    const upsert = deltas.find((d) => d.type === "upsert" && d.rollout.key === KEY && d.was);
    expect(upsert && upsert.type === "upsert" ? upsert.was : null).toMatchObject({ phase: expect.any(String) });
  });

  it("clears the reason as soon as argo-rollouts-config registers the plugin, without the Rollout changing", async () => {
    const store = sim.cluster("staging").store;
    const watchedVersion = () => fleet.cluster("staging")?.rollout("platform", "notifications")?.resourceVersion;
    // The controller's last write before it stopped may still be on its way to the watch: take the version from the
    // store once nothing writes the Rollout any more, and wait until the watch shows it.
    await sim.cluster("staging").controller.stop();
    const rolloutVersion = (store.get(T.rollouts, "platform", "notifications") as { metadata: { resourceVersion: string } }).metadata
      .resourceVersion;
    await waitFor(() => watchedVersion() === rolloutVersion, `the watch to show the Rollout's last write (${rolloutVersion})`);
    store.update(T.configMaps, "argo-rollouts", "argo-rollouts-config", (draft) => {
      const data = (draft as { data?: Record<string, string> }).data ?? {};
      data.trafficRouterPlugins = `${data.trafficRouterPlugins ?? ""}\n- name: hashicorp/consul\n  location: https://example.test/consul-plugin\n`;
      (draft as { data?: Record<string, string> }).data = data;
    });
    await waitFor(() => !codesOf().includes("PluginNotRegistered"), "PluginNotRegistered to clear");
    expect(watchedVersion()).toBe(rolloutVersion);
  });
});
