import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetPage } from "@/lib/contracts/fleet-page";
import type { RolloutDetail } from "@/lib/contracts/rollout-detail";
import {
  abortAsAdmin,
  createBasicCanary,
  createBlueGreen,
  isHealthy,
  isPausedAt,
  promoteAsAdmin,
  ROUTER_PLUGIN,
  setImage,
  startPausedCanary,
  TEST_NAMESPACE,
  waitForCache,
  waitForRollout,
  type Backend,
} from "@/test/harness/backend";
import { startBridgedApp, type BridgedApp } from "@/test/harness/bridged-app";
import { waitFor } from "@/test/harness/free-port";

/**
 * The overview and detail views of Rollscope (auth mode none) for Rollouts the back-end's controller moved: a routed
 * canary paused at its first step, then promoted by hand (as `kubectl argo rollouts promote`), and a blue-green
 * waiting for promotion. What a user reads — phase, step, weights, images, revision — must follow the controller.
 */
export function viewsSuite(getBackend: () => Promise<Backend>): void {
  const CANARY = "view-canary";
  const BLUE_GREEN = "view-bluegreen";
  const BASIC = "view-basic";
  let backend: Backend;
  let app: BridgedApp;

  const detailPath = (name: string) => `/api/clusters/${backend.cluster}/rollouts/${TEST_NAMESPACE}/${name}`;
  const row = async (name: string) => {
    const page = await app.read<FleetPage>(`/api/rollouts?q=${name}`);
    const found = page.rows.find((r) => r.name === name);
    if (!found) throw new Error(`${name} is not on the overview: ${page.rows.map((r) => r.name).join(", ")}`);
    return found;
  };

  beforeAll(async () => {
    backend = await getBackend();
    app = await startBridgedApp(backend);
    await startPausedCanary(backend, CANARY);
    await createBlueGreen(backend, BLUE_GREEN);
    await waitForRollout(backend, BLUE_GREEN, "Healthy", isHealthy);
    await setImage(backend, BLUE_GREEN, "2.0.0");
    await waitForRollout(
      backend,
      BLUE_GREEN,
      "Paused with a preview",
      (r) => r.status?.phase === "Paused" && r.status.blueGreen?.previewSelector !== r.status.blueGreen?.activeSelector,
    );
    await createBasicCanary(backend, BASIC, [{ setWeight: 25 }, { pause: {} }]);
    await waitForRollout(backend, BASIC, "Healthy", isHealthy);
    await setImage(backend, BASIC, "2.0.0");
    await waitForRollout(backend, BASIC, "paused at 25 % (step 1)", isPausedAt(1));
    await waitForCache(backend, app.cachedVersion, CANARY);
    await waitForCache(backend, app.cachedVersion, BLUE_GREEN);
    await waitForCache(backend, app.cachedVersion, BASIC);
  });

  afterAll(async () => {
    await app?.stop();
    await backend?.stop();
  });

  describe("overview and detail views", () => {
    it("shows the paused canary on the overview: Paused at step 2 of 4, 20 % on the canary by the plugin", async () => {
      const summary = await row(CANARY);
      expect(summary).toMatchObject({
        cluster: backend.cluster,
        namespace: TEST_NAMESPACE,
        strategy: "canary",
        phase: "Paused",
        revision: 2,
        step: { index: 1, total: 4 },
        requestedPercent: 20,
        canaryPercent: 20,
        stablePercent: 80,
        aborted: false,
        routers: [{ kind: "plugin", name: ROUTER_PLUGIN }],
      });
      expect(summary.pause).not.toBeNull();
      expect(summary.attention.length).toBeGreaterThan(0);
    });

    it("shows the canary's detail: message, current step, image and events", async () => {
      const detail = await app.read<RolloutDetail>(detailPath(CANARY));
      const { rollout } = detail;
      expect(rollout).toMatchObject({ phase: "Paused", message: "CanaryPauseStep", revision: 2, aborted: false });
      expect(rollout.currentStep?.label).toBe("Pause (until promoted)");
      expect(rollout.steps.map((s) => s.state)).toStrictEqual(["done", "current", "pending", "pending"]);
      expect(rollout.images.map((i) => i.image).sort()).toStrictEqual([`registry.local/rollscope-test/${CANARY}:2.0.0`]);
      // Events reach Rollscope on a watch of their own, a moment after the status that caused them.
      await waitFor(
        "the RolloutPaused event on the detail",
        async () => (await app.read<RolloutDetail>(detailPath(CANARY))).events.some((e) => e.reason === "RolloutPaused"),
        30_000,
        250,
      );
    });

    it("follows a promote made in the cluster: step 4 of 4 at 60 %", async () => {
      await promoteAsAdmin(backend, CANARY);
      await waitForRollout(backend, CANARY, "paused at 60 % (step 3)", isPausedAt(3));
      await waitForCache(backend, app.cachedVersion, CANARY);
      // The overview may answer from a page computed up to a second earlier (shared between readers): wait for it.
      const summary = await waitFor(
        "the overview to show step 4 of 4",
        async () => {
          const current = await row(CANARY);
          return current.step?.index === 3 ? current : null;
        },
        30_000,
        250,
      );
      expect(summary).toMatchObject({
        phase: "Paused",
        step: { index: 3, total: 4 },
        requestedPercent: 60,
        canaryPercent: 60,
        stablePercent: 40,
      });
    });

    it("shows a canary without traffic routing paused at 25 %, with no router and no applied router weight", async () => {
      const summary = await row(BASIC);
      expect(summary).toMatchObject({
        strategy: "canary",
        phase: "Paused",
        step: { index: 1, total: 2 },
        requestedPercent: 25,
        routers: [],
      });
    });

    it("shows an abort made in the cluster: Degraded, the controller's message, the canary back to 0 %", async () => {
      await abortAsAdmin(backend, BASIC);
      const aborted = await waitForRollout(backend, BASIC, "Degraded", (r) => r.status?.phase === "Degraded");
      const summary = await waitFor(
        "the overview to show the abort",
        async () => {
          const current = await row(BASIC);
          return current.phase === "Degraded" ? current : null;
        },
        30_000,
        250,
      );
      expect(summary).toMatchObject({ phase: "Degraded", aborted: true, message: aborted.status?.message, requestedPercent: 0 });
    });

    it("shows the blue-green waiting for promotion with its active and preview revisions", async () => {
      expect(await row(BLUE_GREEN)).toMatchObject({
        strategy: "blueGreen",
        phase: "Paused",
        revision: 2,
        requestedPercent: null,
        canaryPercent: null,
      });
      const { rollout } = await app.read<RolloutDetail>(detailPath(BLUE_GREEN));
      expect(rollout.message).toBe("BlueGreenPause");
      expect(rollout.blueGreen).toMatchObject({ activeService: `${BLUE_GREEN}-active`, previewService: `${BLUE_GREEN}-preview` });
      expect(rollout.blueGreen?.activeSelector).not.toBe(rollout.blueGreen?.previewSelector);
    });
  });
}
