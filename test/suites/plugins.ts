import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PluginHealthReport, PluginHealthView, PluginsOverview } from "@/lib/contracts/plugins";
import {
  createRoutedCanary,
  isHealthy,
  readRollout,
  ROUTER_PLUGIN,
  setImage,
  TEST_NAMESPACE,
  UNREGISTERED_PLUGIN,
  waitForCache,
  waitForRollout,
  type Backend,
} from "@/test/harness/backend";
import { startBridgedApp, type BridgedApp } from "@/test/harness/bridged-app";

/**
 * The plugin registry, its findings and a traffic-router plugin's health (auth mode none), on a cluster whose
 * argo-rollouts-config registers upstream's sample plugin: a canary it routes walks timed steps through a few
 * revisions (weight updates the controller counts in its metrics, scraped by the back-end's Prometheus), and another
 * canary references a plugin nobody registered.
 */
export function pluginsSuite(getBackend: () => Promise<Backend>): void {
  const ROUTED = "plug-routed";
  const UNREGISTERED = "plug-unregistered";
  const TIMED_STEPS = [
    { setWeight: 25 },
    { pause: { duration: "2s" } },
    { setWeight: 50 },
    { pause: { duration: "2s" } },
    { setWeight: 75 },
    { pause: { duration: "2s" } },
  ];
  let backend: Backend;
  let app: BridgedApp;
  let revision = 1;

  /** A new revision of the routed canary, walked to the end: three weight changes through the plugin. */
  async function walkRevision(): Promise<void> {
    revision += 1;
    await setImage(backend, ROUTED, `${revision}.0.0`);
    await waitForRollout(
      backend,
      ROUTED,
      `Healthy at revision ${revision}`,
      (r) =>
        isHealthy(r) &&
        r.spec?.template?.spec?.containers?.[0]?.image?.endsWith(`:${revision}.0.0`) === true &&
        r.status?.currentStepIndex === 6,
    );
  }

  beforeAll(async () => {
    backend = await getBackend();
    app = await startBridgedApp(backend);
    await createRoutedCanary(backend, ROUTED, { steps: TIMED_STEPS });
    await createRoutedCanary(backend, UNREGISTERED, { plugin: UNREGISTERED_PLUGIN });
    await waitForRollout(backend, ROUTED, "Healthy", isHealthy);
    await walkRevision();
    await waitForCache(backend, app.cachedVersion, ROUTED);
    await waitForCache(backend, app.cachedVersion, UNREGISTERED);
  });

  afterAll(async () => {
    await app?.stop();
    await backend?.stop();
  });

  describe("plugin registry, findings and health", () => {
    it("lists the registered plugin with the Rollout that uses it, and the unregistered one as referenced but missing", async () => {
      const overview = await app.read<PluginsOverview>("/api/plugins");
      const [cluster] = overview.clusters;
      expect(cluster).toMatchObject({ cluster: backend.cluster, configMap: { present: true }, crashLoopsOnConfig: false, entryErrors: [] });
      // The real cluster is shared with other suites and its demo workloads: look at this suite's Rollouts.
      // The real cluster registers upstream's other samples and a test router beside it (realcluster/plugin-meters.ts).
      expect(cluster.plugins.map((p) => [p.kind, p.name])).toContainEqual(["trafficRouter", ROUTER_PLUGIN]);
      const router = cluster.plugins.find((p) => p.name === ROUTER_PLUGIN)!;
      const users = (list: Array<{ namespace: string | null; name: string }>) =>
        list.filter((u) => u.name.startsWith("plug-")).map((u) => `${u.namespace}/${u.name}`);
      expect(users(router.usedBy)).toStrictEqual([`${TEST_NAMESPACE}/${ROUTED}`]);
      expect(cluster.unregistered.map((p) => [p.name, users(p.usedBy)])).toStrictEqual([
        [UNREGISTERED_PLUGIN, [`${TEST_NAMESPACE}/${UNREGISTERED}`]],
      ]);
      const cells = Object.fromEntries(overview.matrix.rows.map((row) => [row.name, row.cells[backend.cluster].state]));
      expect(cells).toMatchObject({ [ROUTER_PLUGIN]: "registered", [UNREGISTERED_PLUGIN]: "referenced-not-registered" });
    });

    it("raises a finding for the Rollout that references the unregistered plugin, and none about the file:// entry", async () => {
      const { findings } = await app.read<PluginsOverview>("/api/plugins");
      const unregistered = findings.filter((f) => f.kind === "referenced-not-registered");
      expect(unregistered).toHaveLength(1);
      expect(unregistered[0].affected.map((a) => a.name)).toContain(UNREGISTERED);
      expect(unregistered[0].severity).toBe("critical");
      // upstream checks sha256 only for http(s) downloads: a file:// plugin has nothing to check
      expect(findings.filter((f) => f.kind === "missing-sha256")).toStrictEqual([]);
      const stuck = await readRollout(backend, UNREGISTERED);
      console.log(`${backend.kind}: a Rollout referencing an unregistered plugin: ${JSON.stringify(stuck.status ?? null)}`);
    });

    it("derives the plugin's health from the controller's metrics: weight updates counted, no failure", async () => {
      const path = `/api/plugins/health?range=15m&cluster=${backend.cluster}&plugin=${encodeURIComponent(ROUTER_PLUGIN)}`;
      // Prometheus counts only increases after its first sample of a series (taken after beforeAll's revision):
      // walk another revision, and more until Prometheus has seen the plugin's weight updates.
      const read = async () => (await app.read<PluginHealthReport>(path)).plugins.find((p) => p.cluster === backend.cluster);
      // Calls and weight updates are separate series, scraped and summed separately: wait for both (and read again,
      // the report is shared for a few seconds), not for the calls alone.
      const counted = (h: PluginHealthView | undefined) =>
        (h?.derived.data?.total?.attempts ?? 0) > 0 && (h?.derived.data?.weightUpdates ?? 0) > 0;
      let health: PluginHealthView | undefined;
      for (let revisions = 0; revisions < 3 && !counted(health); revisions++) {
        await walkRevision();
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline && !counted((health = await read()))) await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      if (!health) throw new Error(`no health for ${ROUTER_PLUGIN} in ${backend.cluster}`);
      expect(health.plugin).toBe(ROUTER_PLUGIN);
      expect(health.derived.error).toBeNull();
      expect(health.derived.data!.total).toMatchObject({ failures: 0, successRate: 1 });
      expect(health.derived.data!.total!.attempts).toBeGreaterThan(0);
      expect(health.derived.data!.weightUpdates).toBeGreaterThan(0);
    }, 120_000);
  });
}
