import { describe, expect, it } from "vitest";
import { loadConfigMapFixture } from "@/test/fixtures/configmaps/load-config-map-fixture";
import { loadRolloutFixture, loadRolloutFixtureWith } from "@/lib/rollouts/fixtures.test-helper";
import { deriveFleetPluginFindings } from "./findings";
import { readablePluginHealth, readablePluginsOverview } from "./read-filter";
import { buildClusterRegistry, buildFleetMatrix } from "./registry";
import { toHealthAnswer, type ComputedHealthReport, type ComputedHealthView, type PluginsOverview } from "./view-types";

const source = { kind: "scrape" as const, signal: "test", ok: true, error: null, lastSuccessAt: null };
const inShop = (_cluster: string, namespace: string | null) => namespace === "shop";

/** prod-eu registers gatewayAPI; storefront (shop) uses it and an unregistered step plugin, a copy in payments too. */
function overviewWith(payments: boolean): PluginsOverview {
  const storefront = loadRolloutFixture("plugin-and-builtin-router");
  const copy = loadRolloutFixtureWith("plugin-and-builtin-router", (r) => void (r.metadata.namespace = "payments"));
  const { view, findingsInput } = buildClusterRegistry({
    cluster: "prod-eu",
    label: null,
    connection: "connected",
    controllerNamespace: "argo-rollouts",
    configMap: loadConfigMapFixture("valid"),
    controllerPods: [],
    rollouts: payments ? [storefront, copy] : [storefront],
    analysisTemplates: [],
  });
  const clusters = [{ ...view, metrics: source, errors: [] }];
  const findings = deriveFleetPluginFindings([findingsInput]);
  return { generatedAt: "", clusters, matrix: buildFleetMatrix(clusters, findings), findings, configProblems: [] };
}

describe("readablePluginsOverview", () => {
  it("lists only the users the reader may read, counts them so in the matrix, and keeps the registry", () => {
    const readable = readablePluginsOverview(overviewWith(true), inShop);
    const gateway = readable.clusters[0].plugins.find((p) => p.name === "argoproj-labs/gatewayAPI");
    expect(gateway?.usedBy.map((u) => u.namespace)).toEqual(["shop"]);
    expect(readable.clusters[0].plugins.map((p) => p.name)).toEqual(overviewWith(true).clusters[0].plugins.map((p) => p.name));
    expect(new Set(readable.clusters[0].unregistered.flatMap((u) => u.usedBy.map((user) => user.namespace)))).toEqual(new Set(["shop"]));
    const row = readable.matrix.rows.find((r) => r.name === "argoproj-labs/gatewayAPI" && r.kind === "trafficRouter");
    expect(row?.cells["prod-eu"].usedBy).toBe(1);
  });

  it("leaves out findings that name an object the reader may not read, and nothing else", () => {
    const all = overviewWith(true);
    const readable = readablePluginsOverview(all, inShop);
    const namesPayments = (f: (typeof all.findings)[number]) => f.affected.some((o) => o.namespace === "payments");
    expect(all.findings.some(namesPayments)).toBe(true);
    expect(readable.findings).toEqual(all.findings.filter((f) => !namesPayments(f)));
    expect(readablePluginsOverview(overviewWith(false), inShop).findings).toEqual(overviewWith(false).findings);
  });

  it("drops an unregistered plugin when none of its users is readable", () => {
    const readable = readablePluginsOverview(overviewWith(true), () => false);
    expect(readable.clusters[0].unregistered).toEqual([]);
    expect(readable.matrix.rows.some((r) => r.name === "acme/slack-notify")).toBe(false);
  });
});

describe("readablePluginHealth", () => {
  it("keeps the plugin's numbers and lists only readable Rollouts", () => {
    const rollout = (namespace: string) => ({ cluster: "prod-eu", namespace, name: `${namespace}-app` });
    const panel = <T>(data: T) => ({ signal: "test", error: null, data });
    const view = {
      plugin: "argoproj-labs/gatewayAPI",
      cluster: "prod-eu",
      rollouts: [rollout("shop"), rollout("payments")],
      derived: panel({ points: [], total: { success: 9, error: 1 }, weightUpdates: 3 }),
      verification: panel({ unverified: [{ ...rollout("payments"), since: null, seconds: null }] }),
      warnings: panel([
        { ...rollout("shop"), rollout: "shop-app", reason: "r", message: "m", count: 1, lastAt: "", method: "SetWeight", hint: null },
      ]),
      affected: [{ ...rollout("payments"), reasons: ["x"] }],
      otherProblems: [
        { ...rollout("payments"), reasons: ["AnalysisRun failed"] },
        { ...rollout("shop"), reasons: ["aborted"] },
      ],
    } as unknown as ComputedHealthView;
    const report = { range: "1h", plugins: [view] } as unknown as ComputedHealthReport;
    const [readable] = readablePluginHealth(report, inShop).plugins;
    expect(readable.rollouts).toEqual([rollout("shop")]);
    expect(readable.verification.data?.unverified).toEqual([]);
    expect(readable.warnings.data).toHaveLength(1);
    expect(readable.affected).toEqual([]);
    expect(readable.otherProblems).toEqual([{ ...rollout("shop"), reasons: ["aborted"] }]);
    expect(readable.derived).toBe(view.derived);
    // The answer counts the Rollouts the user may read and lists none of them.
    const [answered] = toHealthAnswer(readablePluginHealth(report, inShop)).plugins;
    expect(answered.rolloutCount).toBe(1);
    expect(answered).not.toHaveProperty("rollouts");
    expect(toHealthAnswer(report).plugins[0].rolloutCount).toBe(2);
  });
});
