import { describe, expect, it } from "vitest";
import { loadConfigMapFixture } from "@/test/fixtures/configmaps/load-config-map-fixture";
import { loadRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { deriveFleetPluginFindings } from "./findings";
import { buildClusterRegistry, buildFleetMatrix, deriveControllerView, findArgoRolloutsConfigMap } from "./registry";

const controllerPod = (startedAt: string, crash?: string) => ({
  metadata: { name: "argo-rollouts-6f9c-abcde", labels: { "app.kubernetes.io/name": "argo-rollouts" } },
  status: {
    startTime: "2026-08-01T00:00:00Z",
    containerStatuses: [
      crash
        ? { state: { waiting: { reason: "CrashLoopBackOff" } }, lastState: { terminated: { message: `level=fatal msg="${crash}"` } } }
        : { state: { running: { startedAt } } },
    ],
  },
});

describe("deriveControllerView", () => {
  it("uses the container's start (when it read the ConfigMap) and ignores other pods", () => {
    const dashboard = { metadata: { name: "argo-rollouts-dashboard-1", labels: { "app.kubernetes.io/name": "argo-rollouts-dashboard" } } };
    expect(deriveControllerView([dashboard, controllerPod("2026-08-18T09:00:00Z")])).toMatchObject({
      podName: "argo-rollouts-6f9c-abcde",
      startedAt: "2026-08-18T09:00:00Z",
      crashLooping: false,
    });
  });

  it("reports a crash loop with the fatal line and a hint", () => {
    const view = deriveControllerView([controllerPod("", "Failed to download plugins: plugin location must be of http(s) or file scheme")]);
    expect(view.crashLooping).toBe(true);
    expect(view.reason).toContain("plugin location must be of http(s) or file scheme");
    expect(view.hint?.code).toBe("invalid-location-scheme");
  });
});

describe("buildClusterRegistry and buildFleetMatrix", () => {
  const rollout = loadRolloutFixture("plugin-and-builtin-router");
  const input = (cluster: string, fixture: string) => ({
    cluster,
    label: null,
    connection: "connected",
    controllerNamespace: "argo-rollouts",
    configMap: loadConfigMapFixture(fixture),
    controllerPods: [controllerPod("2026-08-18T09:00:00Z")],
    rollouts: [rollout],
    analysisTemplates: [],
  });

  it("lists each plugin with the Rollouts that use it, and unregistered references", () => {
    const { view } = buildClusterRegistry(input("prod-eu", "valid"));
    const gateway = view.plugins.find((p) => p.name === "argoproj-labs/gatewayAPI");
    expect(gateway?.usedBy).toEqual([
      { kind: "Rollout", namespace: "shop", name: "storefront", path: "spec.strategy.canary.trafficRouting.plugins", viaTemplate: null },
    ]);
    expect(view.unregistered.map((u) => `${u.kind}/${u.name}`)).toEqual(["step/acme/slack-notify"]);
    expect(view.crashLoopsOnConfig).toBe(false);
  });

  it("marks invalid entries with a hint and builds a plugin × cluster matrix", () => {
    const good = buildClusterRegistry(input("prod-eu", "valid"));
    const bad = buildClusterRegistry(input("staging", "bad-location-scheme"));
    expect(bad.view.crashLoopsOnConfig).toBe(true);
    expect(bad.view.entryErrors[0].reason).toMatch(/scheme/);
    const findings = deriveFleetPluginFindings([good.findingsInput, bad.findingsInput]);
    const matrix = buildFleetMatrix(
      [
        { ...good.view, metrics: source, errors: [] },
        { ...bad.view, metrics: source, errors: [] },
      ],
      findings,
    );
    expect(matrix.clusters).toEqual(["prod-eu", "staging"]);
    const gatewayRow = matrix.rows.find((r) => r.name === "argoproj-labs/gatewayAPI" && r.kind === "trafficRouter");
    expect(gatewayRow?.cells["prod-eu"]).toMatchObject({ state: "registered", usedBy: 1 });
    const slack = matrix.rows.find((r) => r.name === "acme/slack-notify");
    expect(slack?.cells["prod-eu"].state).toBe("referenced-not-registered");
    expect(slack?.cells["prod-eu"].critical).toBeGreaterThan(0);
    expect(matrix.rows.every((row) => Object.keys(row.cells).length === 2)).toBe(true);
  });
});

describe("reading the watcher's caches", () => {
  it("finds argo-rollouts-config among the ConfigMaps, and nothing when it is absent or malformed", () => {
    const config = loadConfigMapFixture("valid");
    const other = { metadata: { name: "kube-root-ca.crt" }, data: { "ca.crt": "…" } };
    expect(findArgoRolloutsConfigMap([other, config])?.data).toEqual(config.data);
    expect(findArgoRolloutsConfigMap([other])).toBeNull();
    expect(
      findArgoRolloutsConfigMap([{ metadata: { name: "argo-rollouts-config" }, data: { trafficRouterPlugins: 42 } } as never]),
    ).toBeNull();
  });
});

const source = { kind: "scrape" as const, signal: "test", ok: true, error: null, lastSuccessAt: null };
