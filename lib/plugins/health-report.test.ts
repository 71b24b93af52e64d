import { describe, expect, it } from "vitest";
import type { IncreaseSeries } from "@/lib/metrics/types";
import { FIXTURE_NOW, loadRolloutFixtureWith } from "@/lib/rollouts/fixtures.test-helper";
import { toRolloutView, type AttentionReason } from "@/lib/rollouts/view-model";
import { sumSeriesBy } from "@/lib/metrics/counter-math";
import { emptyClusterSignals, emptySignalSeries, type ClusterSignals } from "./controller-signals";
import { resolvePluginSettings } from "./effective-settings";
import { addSignalSeries, type DerivedSignalSeries, type PluginWarningEvent } from "./health";
import {
  assembleHealthReport,
  buildClusterHealthViews,
  buildFleetHealthViews,
  describeUnverifiedRollout,
  deriveAffectedRollouts,
  planHealthWindow,
  type ClusterHealthData,
  type ScopeRecords,
} from "./health-report";
import { listPluginScopes, type PluginRollout } from "./plugin-scopes";
import type { ComputedHealthReport, ComputedHealthView } from "./view-types";

/*
 * Fixtures: the real `plugin-and-builtin-router` Rollout (Istio + contour + gatewayAPI), copied under other names,
 * in two clusters; controller signals as a metrics source answers them (increases per 30-s window, null = no data).
 *
 * prod-eu: storefront (contour + gatewayAPI) fails 3 of 10 calls at the latest point; checkout (contour) 0 of 10.
 * prod-us: storefront (contour) fails 1 of 10 (a VerifyWeight error).
 */

const NOW = FIXTURE_NOW.getTime();
const WINDOW = planHealthWindow("15m", NOW);
const POINTS = WINDOW.timestamps.length;
const CONTOUR = "argoproj-labs/contour";
const GATEWAY = "argoproj-labs/gatewayAPI";

function rolloutUsing(name: string, plugins: readonly string[]): PluginRollout {
  const resource = loadRolloutFixtureWith("plugin-and-builtin-router", (r) => {
    r.metadata.name = name;
    r.spec!.strategy!.canary!.trafficRouting!.plugins = Object.fromEntries(plugins.map((p) => [p, {}]));
  });
  return { ...toRolloutView(resource, FIXTURE_NOW), parseError: null };
}

/** A series with values only at its last points. */
function tail(length: number, last: ReadonlyArray<number>): Array<number | null> {
  return [...Array.from({ length: length - last.length }, () => null), ...last];
}

function signalsAtLastPoint(
  length: number,
  point: { weightUpdates: number; routingErrors: number; verifyErrors: number; reconcileErrors: number; reconciles: number },
): DerivedSignalSeries {
  return {
    weightUpdates: tail(length, [point.weightUpdates]),
    routingErrors: tail(length, [point.routingErrors]),
    verifyErrors: tail(length, [point.verifyErrors]),
    reconcileErrors: tail(length, [point.reconcileErrors]),
    reconciles: tail(length, [point.reconciles]),
  };
}

type SignalPoint = Parameters<typeof signalsAtLastPoint>[1];

/**
 * A cluster's signals as the source answers them: per plugin, summed over the Rollouts that use it (`usage`: plugin →
 * `ns/name` keys) — with the latency buckets summed by `le` — and per Rollout at the latest point.
 */
function clusterSignals(
  byRollout: Record<string, SignalPoint>,
  usage: Record<string, readonly string[]>,
  latencyBuckets: IncreaseSeries[] = [],
): ClusterSignals {
  const sumOf = (keys: readonly string[], length: number) =>
    keys.reduce((acc, key) => addSignalSeries(acc, signalsAtLastPoint(length, byRollout[key])), emptySignalSeries(length));
  const bucketsOf = (keys: readonly string[]) =>
    sumSeriesBy(
      latencyBuckets.filter((b) => keys.includes(`${b.labels.namespace}/${b.labels.name}`)),
      ["le"],
    );
  const byPlugin = new Map(
    Object.entries(usage).map(([plugin, keys]) => [
      plugin,
      { series: sumOf(keys, POINTS), burn1h: sumOf(keys, 1), burn24h: sumOf(keys, 1), latencyBuckets: bucketsOf(keys) },
    ]),
  );
  return { ...emptyClusterSignals(), byPlugin };
}

const bucket = (name: string, le: string, count: number): IncreaseSeries => ({
  labels: { namespace: "shop", name, le },
  values: tail(POINTS, [count]),
});

const fleetSettings = resolvePluginSettings({ slo: { target: 0.95 } }, undefined);

function prodEuData(overrides: Partial<ClusterSignals> = {}): ClusterHealthData {
  return {
    signals: {
      ...clusterSignals(
        {
          "shop/storefront": { weightUpdates: 2, routingErrors: 3, verifyErrors: 0, reconcileErrors: 3, reconciles: 10 },
          "shop/checkout": { weightUpdates: 1, routingErrors: 0, verifyErrors: 0, reconcileErrors: 0, reconciles: 10 },
        },
        { [CONTOUR]: ["shop/storefront", "shop/checkout"], [GATEWAY]: ["shop/storefront"] },
        [bucket("storefront", "0.1", 5), bucket("storefront", "0.5", 10), bucket("storefront", "+Inf", 10), bucket("checkout", "+Inf", 40)],
      ),
      ...overrides,
    },
    perRpc: null,
    sourceSignal: 'Prometheus http://prom:9090 {cluster="prod-eu"}',
    settings: resolvePluginSettings({ slo: { target: 0.95 } }, { slo: { target: 0.99 } }),
  };
}

function prodUsData(overrides: Partial<ClusterSignals> = {}): ClusterHealthData {
  return {
    signals: {
      ...clusterSignals(
        { "shop/storefront": { weightUpdates: 0, routingErrors: 0, verifyErrors: 1, reconcileErrors: 0, reconciles: 10 } },
        { [CONTOUR]: ["shop/storefront"] },
      ),
      ...overrides,
    },
    perRpc: null,
    sourceSignal: 'Prometheus http://prom:9090 {cluster="prod-us"}',
    settings: resolvePluginSettings({ slo: { target: 0.95 } }, undefined),
  };
}

const routingError: PluginWarningEvent = {
  namespace: "shop",
  rollout: "storefront",
  reason: "TrafficRoutingError",
  message: "failed to set weight via plugin: HTTPProxy shop/storefront not found",
  count: 2,
  lastAt: new Date(NOW - 60_000).toISOString(),
};
const oldVerifyError: PluginWarningEvent = {
  namespace: "shop",
  rollout: "storefront",
  reason: "WeightVerifyError",
  message: "Failed to verify weight: weights not yet applied",
  count: 1,
  lastAt: new Date(NOW - 20 * 60_000).toISOString(),
};
const unverifiedStorefront = describeUnverifiedRollout(
  "prod-eu",
  { namespace: "shop", name: "storefront" },
  [
    { atMs: NOW - 200_000, verified: true },
    { atMs: NOW - 120_000, verified: false },
    { atMs: NOW - 60_000, verified: false },
  ],
  NOW,
);

/** storefront's needs-attention reasons as the overview's queue shows them (in prod-eu and in prod-us). */
const STOREFRONT_ROUTING: AttentionReason = {
  code: "ReconcileFailing",
  message: "TrafficRoutingError: failed to set weight via plugin: HTTPProxy shop/storefront not found",
};
const STOREFRONT_UNVERIFIED: AttentionReason = { code: "WeightNotVerified", message: "Canary weight 20 % not verified by the router" };
const withReasons = (rollout: PluginRollout, attention: AttentionReason[]): PluginRollout => ({ ...rollout, attention });

const clusters = [
  {
    name: "prod-eu",
    rollouts: () => [
      withReasons(rolloutUsing("storefront", [CONTOUR, GATEWAY]), [STOREFRONT_ROUTING, STOREFRONT_UNVERIFIED]),
      withReasons(rolloutUsing("checkout", [CONTOUR]), []),
    ],
  },
  { name: "prod-us", rollouts: () => [withReasons(rolloutUsing("storefront", [CONTOUR]), [STOREFRONT_UNVERIFIED])] },
];

/** The report as the plugin-health service composes it: per-cluster views, then the fleet-wide ones first. */
function buildReport(
  options: { data?: Record<string, ClusterHealthData>; records?: (cluster: string) => ScopeRecords; cluster?: string } = {},
): ComputedHealthReport {
  const data = options.data ?? { "prod-eu": prodEuData(), "prod-us": prodUsData() };
  const scopes = listPluginScopes(clusters, { cluster: options.cluster });
  const records = scopes.map(
    (s) =>
      options.records?.(s.cluster) ?? {
        events: s.cluster === "prod-eu" ? [routingError, oldVerifyError] : [],
        unverified: s.cluster === "prod-eu" ? [unverifiedStorefront] : [],
      },
  );
  const perCluster = buildClusterHealthViews({ window: WINDOW, scopes, clusters: new Map(Object.entries(data)), records });
  const fleetWide = options.cluster ? [] : buildFleetHealthViews(perCluster, fleetSettings, WINDOW.timestamps);
  return assembleHealthReport(WINDOW, [...fleetWide, ...perCluster.map((b) => b.view)]);
}

function viewOf(report: ComputedHealthReport, cluster: string | null, plugin: string): ComputedHealthView {
  const view = report.plugins.find((v) => v.cluster === cluster && v.plugin === plugin);
  if (!view) throw new Error(`no view for ${plugin} in ${cluster ?? "the fleet"}`);
  return view;
}

describe("planHealthWindow", () => {
  it("covers the range on step-aligned points and reports what it covers", () => {
    const window = planHealthWindow("1h", NOW);
    expect(window.query.stepSeconds).toBe(60);
    expect(window.timestamps).toHaveLength(60);
    expect(window.timestamps.at(-1)).toBe(NOW);
    const report = assembleHealthReport(window, []);
    expect(report).toMatchObject({
      range: "1h",
      from: new Date(NOW - 3_600_000).toISOString(),
      to: FIXTURE_NOW.toISOString(),
      stepSeconds: 60,
      refreshing: false,
    });
  });
});

describe("per-cluster health", () => {
  const report = buildReport();
  const contour = viewOf(report, "prod-eu", CONTOUR);

  it("derives the plugin's success rate from the signals of every Rollout that uses it", () => {
    expect(contour.rollouts).toEqual([
      { cluster: "prod-eu", namespace: "shop", name: "storefront" },
      { cluster: "prod-eu", namespace: "shop", name: "checkout" },
    ]);
    expect(contour.derived.error).toBeNull();
    expect(contour.derived.signal).toMatch(/^DERIVED .*; Prometheus http:\/\/prom:9090 \{cluster="prod-eu"\}$/);
    expect(contour.derived.data!.total).toEqual({ attempts: 20, failures: 3, successes: 17, successRate: 0.85 });
    expect(contour.derived.data!.points).toHaveLength(POINTS);
    expect(contour.derived.data!.points.at(-1)).toMatchObject({ at: FIXTURE_NOW.toISOString(), successRate: 0.85, weightUpdates: 3 });
    expect(contour.derived.data!.points[0]).toMatchObject({ successRate: null, weightUpdates: null });
    // gatewayAPI is used by storefront alone.
    expect(viewOf(report, "prod-eu", GATEWAY).derived.data!.total!.successRate).toBe(0.7);
  });

  it("burns the cluster's own SLO target", () => {
    expect(contour.slo.data!.target).toBe(0.99);
    expect(contour.slo.data!.burn.map((b) => [b.window, b.status])).toEqual([
      ["1h", "critical"],
      ["24h", "critical"],
    ]);
    expect(contour.slo.data!.burn[0].burnRate).toBeCloseTo(15);
  });

  it("counts failures by RPC from the events, adding what the counter saw beyond them", () => {
    expect(contour.failuresByMethod.data!.map((m) => [m.method, m.failures])).toEqual([
      ["SetWeight", 3],
      ["VerifyWeight", 1],
    ]);
  });

  it("reads reconcile latency from the scope's own histogram buckets", () => {
    const gateway = viewOf(report, "prod-eu", GATEWAY);
    expect(gateway.latency.data!.p50).toBeCloseTo(0.1);
    expect(gateway.latency.data!.p95).toBeCloseTo(0.46);
    // checkout's slow reconciles count for contour only.
    expect(contour.latency.data!.p95).toBe(0.5);
  });

  it("lists warnings with the failing method and a hint, and the Rollouts the plugin hurts now (the queue's reasons)", () => {
    expect(contour.warnings.data!.map((w) => [w.reason, w.method, w.hint?.code ?? null])).toEqual([
      ["TrafficRoutingError", "SetWeight", "set-weight-failed"],
      ["WeightVerifyError", "VerifyWeight", expect.any(String)],
    ]);
    expect(contour.verification.data!.unverified).toEqual([
      { cluster: "prod-eu", namespace: "shop", name: "storefront", since: new Date(NOW - 120_000).toISOString(), seconds: 120 },
    ]);
    expect(contour.affected).toEqual([
      {
        cluster: "prod-eu",
        namespace: "shop",
        name: "storefront",
        reasons: [STOREFRONT_ROUTING.message, STOREFRONT_UNVERIFIED.message],
      },
    ]);
    // checkout has no needs-attention reason: however its metrics read, it is not affected now.
    expect(contour.otherProblems).toEqual([]);
  });

  it("has no per-RPC panel unless the cluster configures a per-RPC metric", () => {
    expect(contour.perRpc).toBeNull();
  });
});

describe("fleet-wide health", () => {
  it("sums a plugin used in two clusters, first in the report, against the fleet-wide SLO", () => {
    const report = buildReport();
    // gatewayAPI runs in prod-eu only: no fleet-wide view of it.
    expect(report.plugins.map((v) => `${v.cluster ?? "fleet"}/${v.plugin}`)).toEqual([
      `fleet/${CONTOUR}`,
      `prod-eu/${CONTOUR}`,
      `prod-eu/${GATEWAY}`,
      `prod-us/${CONTOUR}`,
    ]);
    const fleet = viewOf(report, null, CONTOUR);
    expect(fleet.derived.data!.total).toEqual({ attempts: 30, failures: 4, successes: 26, successRate: 26 / 30 });
    expect(fleet.derived.signal).toMatch(/summed over prod-eu, prod-us$/);
    expect(fleet.slo.data!.target).toBe(0.95);
    expect(fleet.rollouts.map((r) => `${r.cluster}/${r.name}`)).toEqual(["prod-eu/storefront", "prod-eu/checkout", "prod-us/storefront"]);
    expect(fleet.affected.map((a) => `${a.cluster}/${a.name}`)).toEqual(["prod-eu/storefront", "prod-us/storefront"]);
    expect(fleet.perRpc).toBeNull();
  });

  it("merges warnings newest first and failures by method over the clusters", () => {
    const usEvent = {
      ...routingError,
      count: 1,
      lastAt: new Date(NOW - 30_000).toISOString(),
      message: "failed to set weight via plugin: timeout",
    };
    const report = buildReport({ records: (cluster) => ({ events: cluster === "prod-eu" ? [routingError] : [usEvent], unverified: [] }) });
    const fleet = viewOf(report, null, CONTOUR);
    expect(fleet.warnings.data!.map((w) => `${w.cluster}: ${w.message}`)).toEqual([
      "prod-us: failed to set weight via plugin: timeout",
      "prod-eu: failed to set weight via plugin: HTTPProxy shop/storefront not found",
    ]);
    // prod-eu: 2 kept events + 1 beyond them; prod-us: 1 event.
    expect(fleet.failuresByMethod.data!.find((m) => m.method === "SetWeight")!.failures).toBe(4);
  });

  it("builds no fleet-wide view when one cluster is asked for", () => {
    const report = buildReport({ cluster: "prod-eu", data: { "prod-eu": prodEuData() } });
    expect(report.plugins.every((v) => v.cluster === "prod-eu")).toBe(true);
  });
});

describe("edge cases", () => {
  it("shows no data, not zero, when the source has no series for the plugin's Rollouts", () => {
    const empty: ClusterHealthData = { ...prodUsData(), signals: emptyClusterSignals() };
    const report = buildReport({
      data: { "prod-eu": { ...prodEuData(), signals: emptyClusterSignals() }, "prod-us": empty },
      records: () => ({ events: [], unverified: [] }),
    });
    const contour = viewOf(report, "prod-us", CONTOUR);
    expect(contour.derived.error).toBeNull();
    expect(contour.derived.data!.total).toBeNull();
    expect(contour.derived.data!.points.every((p) => p.successRate === null)).toBe(true);
    expect(contour.slo.data!.burn.map((b) => b.status)).toEqual(["no-data", "no-data"]);
    expect(contour.latency.data!.p50).toBeNull();
    expect(contour.failuresByMethod.data).toEqual([]);
    // Whether a Rollout is affected now is the queue's word, not the metrics': it stays without data.
    expect(contour.affected.map((a) => a.name)).toEqual(["storefront"]);
    expect(viewOf(report, null, CONTOUR).derived.data!.total).toBeNull();
  });

  it("fails only one cluster's metric panels when its source is down, and says so in the fleet sum", () => {
    const report = buildReport({
      data: {
        "prod-eu": prodEuData(),
        "prod-us": prodUsData({ ...emptyClusterSignals(), error: "Prometheus unreachable", latencyError: "Prometheus unreachable" }),
      },
    });
    const us = viewOf(report, "prod-us", CONTOUR);
    expect(us.derived).toMatchObject({ error: "Prometheus unreachable", data: null });
    expect(us.slo).toMatchObject({ error: "Prometheus unreachable", data: null });
    expect(us.latency).toMatchObject({ error: "Prometheus unreachable", data: null });
    expect(us.warnings.error).toBeNull();
    expect(viewOf(report, "prod-eu", CONTOUR).derived.error).toBeNull();
    const fleet = viewOf(report, null, CONTOUR);
    expect(fleet.derived.error).toBeNull();
    expect(fleet.derived.signal).toMatch(/summed over prod-eu, prod-us \(partial: prod-us: Prometheus unreachable\)$/);
    expect(fleet.derived.data!.total).toEqual({ attempts: 20, failures: 3, successes: 17, successRate: 0.85 });
  });

  it("keeps the metric panels when the records cannot be read", () => {
    const report = buildReport({ records: () => ({ events: null, unverified: null }) });
    const contour = viewOf(report, "prod-eu", CONTOUR);
    expect(contour.warnings).toMatchObject({ error: "recorded events could not be read", data: null });
    expect(contour.failuresByMethod).toMatchObject({ error: "recorded events could not be read", data: null });
    expect(contour.verification).toMatchObject({ error: "recorded samples could not be read", data: null });
    expect(contour.derived.data!.total!.successRate).toBe(0.85);
    expect(contour.affected.map((a) => a.reasons)).toEqual([[STOREFRONT_ROUTING.message, STOREFRONT_UNVERIFIED.message]]);
  });

  const NO_PER_RPC: NonNullable<ClusterHealthData["perRpc"]> = {
    calls: [],
    buckets: [],
    durationSums: [],
    durationCounts: [],
    restarts: [],
    source: "configured",
    error: null,
    signal: "per-RPC",
  };

  it("shows a failing per-RPC metric as an error, and drops the panel when it has no calls of the plugin", () => {
    const perRpcCalls = (plugin: string, outcome: string, count: number): IncreaseSeries => ({
      labels: { plugin, method: "SetWeight", outcome },
      values: tail(POINTS, [count]),
    });
    const withPerRpc = (perRpc: ClusterHealthData["perRpc"]): ClusterHealthData => ({ ...prodEuData(), perRpc });
    const failing = buildReport({
      data: {
        "prod-eu": withPerRpc({ ...NO_PER_RPC, error: "bad_data: parse error" }),
        "prod-us": prodUsData(),
      },
    });
    expect(viewOf(failing, "prod-eu", CONTOUR).perRpc).toEqual({ signal: "per-RPC", error: "bad_data: parse error", data: null });

    const gatewayOnly = withPerRpc({ ...NO_PER_RPC, calls: [perRpcCalls(GATEWAY, "ok", 8), perRpcCalls(GATEWAY, "error", 2)] });
    const report = buildReport({ data: { "prod-eu": gatewayOnly, "prod-us": prodUsData() } });
    expect(viewOf(report, "prod-eu", CONTOUR).perRpc).toBeNull();
    expect(viewOf(report, "prod-eu", GATEWAY).perRpc!.data!.total).toEqual({ calls: 10, errors: 2, successRate: 0.8 });
  });

  it("refuses to build a scope whose cluster was not collected", () => {
    expect(() => buildReport({ data: { "prod-eu": prodEuData() } })).toThrow(/no collected data for cluster prod-us/);
  });
});

describe("deriveAffectedRollouts: one definition with the overview's needs-attention queue", () => {
  const withAttention = (name: string, attention: AttentionReason[], parseError: string | null = null): PluginRollout => ({
    ...rolloutUsing(name, [CONTOUR]),
    attention,
    parseError,
  });
  const routing = { code: "ReconcileFailing" as const, message: "TrafficRoutingError: failed to set weight via plugin: Contour: 503" };

  it("lists a Rollout as affected exactly when its queue reasons include the router's, and its own problems beside", () => {
    const rollouts = [
      withAttention("quiet", []),
      withAttention("search", [routing]),
      withAttention("cart", [
        { code: "AnalysisFailed", message: "Metric success-rate assessed Failed" },
        { code: "Aborted", message: "RolloutAborted: Rollout aborted update to revision 2" },
      ]),
      withAttention("checkout", [
        { code: "PluginNotRegistered", message: `Traffic-router plugin ${CONTOUR} is not registered in prod-eu's argo-rollouts-config` },
        { code: "AwaitingPromotion", message: "Paused at step 2 of 4: promote to continue" },
      ]),
      withAttention("payments", [{ code: "Degraded", message: 'ServiceNotFound: service "payments-canary" not found' }]),
      withAttention("broken", [], "spec.replicas: expected number"),
    ];
    const { affected, otherProblems } = deriveAffectedRollouts({ cluster: "prod-eu", plugin: CONTOUR, rollouts });
    expect(affected.map((a) => [a.name, a.reasons])).toEqual([
      ["search", [routing.message]],
      ["checkout", [`Traffic-router plugin ${CONTOUR} is not registered in prod-eu's argo-rollouts-config`]],
    ]);
    expect(otherProblems.map((a) => [a.name, a.reasons])).toEqual([
      ["cart", ["Metric success-rate assessed Failed", "RolloutAborted: Rollout aborted update to revision 2"]],
      ["payments", ['ServiceNotFound: service "payments-canary" not found']],
      ["broken", ["unreadable spec: spec.replicas: expected number"]],
    ]);
  });

  it("keeps at most five reasons per Rollout", () => {
    const many = Array.from({ length: 7 }, (_, i) => ({ ...routing, message: `${routing.message} (${i})` }));
    expect(
      deriveAffectedRollouts({ cluster: "prod-eu", plugin: CONTOUR, rollouts: [withAttention("search", many)] }).affected[0].reasons,
    ).toHaveLength(5);
  });
});
