import { loadConfigMapFixture } from "@/test/fixtures/configmaps/load-config-map-fixture";
import { loadRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { deriveFleetPluginFindings } from "./findings";
import { buildClusterRegistry, buildFleetMatrix } from "./registry";
import type { PluginHealthView, PluginsOverview } from "./view-types";

const source = { kind: "scrape" as const, signal: "test", ok: true, error: null, lastSuccessAt: null };

/**
 * prod-eu registers the valid ConfigMap's plugins, prod-us the missing-sha256 one (contour from another location);
 * storefront (shop) runs in both and uses contour, gatewayAPI and the unregistered step plugin acme/slack-notify.
 */
export function twoClusterOverview(): PluginsOverview {
  const built = (["prod-eu", "prod-us"] as const).map((cluster) =>
    buildClusterRegistry({
      cluster,
      label: null,
      connection: "connected",
      controllerNamespace: "argo-rollouts",
      configMap: loadConfigMapFixture(cluster === "prod-eu" ? "valid" : "missing-sha256"),
      controllerPods: [],
      rollouts: [loadRolloutFixture("plugin-and-builtin-router")],
      analysisTemplates: [],
    }),
  );
  const clusters = built.map(({ view }) => ({ ...view, metrics: source, errors: [] }));
  const findings = deriveFleetPluginFindings(built.map((b) => b.findingsInput));
  return { generatedAt: "", clusters, matrix: buildFleetMatrix(clusters, findings), findings, configProblems: [] };
}

/** A health view with every panel empty; override what a test is about. */
export function healthView(partial: Partial<PluginHealthView> = {}): PluginHealthView {
  const panel = <T>(data: T | null) => ({ signal: "s", error: null, data });
  return {
    plugin: "argoproj-labs/contour",
    cluster: "prod-eu",
    rolloutCount: 0,
    derived: panel(null),
    slo: panel(null),
    failuresByMethod: panel([]),
    latency: panel(null),
    perRpc: null,
    verification: panel({ unverified: [] }),
    warnings: panel([]),
    affected: [],
    otherProblems: [],
    ...partial,
  };
}

/** The derived panel and SLO burn of a view whose calls succeeded at `successRate` with the given burn statuses. */
export function withOutcome(successRate: number, burn: Array<"ok" | "warning" | "critical" | "no-data">): Partial<PluginHealthView> {
  const attempts = 100;
  const failures = Math.round(attempts * (1 - successRate));
  return {
    derived: {
      signal: "s",
      error: null,
      data: { points: [], total: { attempts, failures, successes: attempts - failures, successRate }, weightUpdates: 0 },
    },
    slo: {
      signal: "s",
      error: null,
      data: {
        target: 0.99,
        burn: burn.map((status, i) => ({
          window: i === 0 ? ("1h" as const) : ("24h" as const),
          burnRate: 1,
          errorRate: 1 - successRate,
          attempts,
          status,
        })),
      },
    },
  };
}

/** The per-call panel of a view whose calls the plugin meter measured: `errors` failed of `calls`. */
export function withMeasured(calls: number, errors: number): Partial<PluginHealthView> {
  const successRate = calls > 0 ? (calls - errors) / calls : null;
  return {
    perRpc: {
      signal: "MEASURED at the plugin boundary",
      error: null,
      data: {
        source: "meter",
        methods: [],
        points: [],
        total: { calls, errors, successRate },
        restarts: 0,
      },
    },
  };
}
