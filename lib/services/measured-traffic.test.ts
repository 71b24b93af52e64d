import { describe, expect, it } from "vitest";
import type { WeightRow } from "@/lib/db/rollout-samples";
import type { Fleet } from "@/lib/fleet/fleet";
import { rangeTimestamps, type IncreaseSeries, type MetricsSource, type RangeSpec } from "@/lib/metrics/types";
import { PrometheusError } from "@/lib/prometheus/client";
import { FIXTURE_NOW, loadRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { toRolloutView, type FleetRollout } from "@/lib/rollouts/view-model";
import type { AppContext } from "@/lib/server/app-context";
import { ServiceState } from "@/lib/server/service-state";
import { findStuckRouters } from "./measured-traffic";

const NOW = FIXTURE_NOW.getTime();
/** The fixture routes through Istio first, so its template measures it: canary `<name>-canary`, total canary|stable. */
const base = toRolloutView(loadRolloutFixture("plugin-and-builtin-router"), FIXTURE_NOW);

function rollout(name: string): FleetRollout {
  return {
    ...base,
    name,
    canary: { canaryService: `${name}-canary`, stableService: `${name}-stable` },
    cluster: "prod-eu",
    key: `prod-eu/shop/${name}`,
    parseError: null,
    lastChangedAt: FIXTURE_NOW.toISOString(),
  };
}

/**
 * A Prometheus that knows each Rollout's request rates: 100 requests a second, 20 of them to the canary (what the
 * applied 20 % asks for) except for the Rollouts in `stuck`, whose canary gets none. It answers a single query and
 * a batch of tagged ones (`label_replace(label_replace(q, "rollscope_part", …), "rollscope_group", …) or …`) as
 * Prometheus would; `fail` may throw instead.
 */
function fakePrometheus(stuck: ReadonlySet<string>, fail?: (promql: string) => Error | null) {
  const requests: string[] = [];
  const answer = (promql: string, range: RangeSpec): IncreaseSeries[] => {
    const service = /destination_service_name=~?"([a-z0-9-]+)-canary/.exec(promql)?.[1] ?? "";
    const total = promql.includes("=~");
    const rate = total ? 100 : stuck.has(service) ? 0 : 20;
    return [{ labels: {}, values: rangeTimestamps(range).map(() => rate) }];
  };
  const queryRange = async (promql: string, range: RangeSpec): Promise<IncreaseSeries[]> => {
    requests.push(promql);
    const error = fail?.(promql);
    if (error) throw error;
    const arms = [
      ...promql.matchAll(
        /label_replace\(label_replace\((.+?)\n, "rollscope_part", "(canary|total)", "", ""\)\n, "rollscope_group", "(\d+)", "", ""\)/g,
      ),
    ];
    if (arms.length === 0) return answer(promql, range);
    return arms.flatMap(([, query, part, group]) =>
      answer(query, range).map((s) => ({ labels: { ...s.labels, rollscope_part: part, rollscope_group: group }, values: s.values })),
    );
  };
  return { requests, queryRange };
}

function appWith(
  rollouts: FleetRollout[],
  queryRange: MetricsSource["queryRange"],
  weights: Map<string, WeightRow[]> = new Map(),
): { app: AppContext; weightReads: string[][] } {
  const weightReads: string[][] = [];
  const cluster = {
    name: "prod-eu",
    config: { controllerNamespace: "argo-rollouts" },
    rollouts: () => rollouts,
    rolloutProjection: () => null,
  };
  const source = { kind: "prometheus", signal: "Prometheus http://prom:9090", queryRange } as unknown as MetricsSource;
  const app = {
    fleet: { clusters: [cluster], clusterOrThrow: () => cluster } as unknown as Fleet,
    config: {},
    now: () => NOW,
    serviceState: new ServiceState(),
    metricsSource: () => source,
    repos: {
      rolloutSamples: {
        async listWeightsSince(_cluster: string, refs: ReadonlyArray<{ namespace: string; name: string }>) {
          weightReads.push(refs.map((r) => r.name));
          return weights;
        },
      },
    },
  } as unknown as AppContext;
  return { app, weightReads };
}

const fleet = Array.from({ length: 100 }, (_, i) => rollout(`r${i}`));

describe("the stuck-router check", () => {
  it("measures a cluster's Rollouts in a few batched requests and flags only the one whose canary gets no traffic", async () => {
    const prometheus = fakePrometheus(new Set(["r37"]));
    const { app, weightReads } = appWith(fleet, prometheus.queryRange);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.problems).toEqual([]);
    expect(result.findings.map((f) => f.affected[0].name)).toEqual(["r37"]);
    expect(result.findings[0].title + result.findings[0].detail).toMatch(/20 %.*measured canary share 0\.0 %/s);
    // 100 Rollouts, two queries each: five requests of at most 20 Rollouts, not 200.
    expect(prometheus.requests).toHaveLength(5);
    // The applied-weight history of every measured Rollout in one read.
    expect(weightReads).toEqual([fleet.map((r) => r.name)]);
  });

  it("reads each Rollout's applied weights from the recorded history: a weight applied a moment ago is not stuck yet", async () => {
    const prometheus = fakePrometheus(new Set(["r37", "r38"]));
    // r38 had 0 % until 30 s ago: its measured 0 % is what it was asked for until then, and the rate window has not
    // caught up with the change since.
    const weights = new Map([
      [
        "shop/r38",
        [
          { atMs: NOW - 3_600_000, canaryWeight: 0, maxWeight: 100 },
          { atMs: NOW - 30_000, canaryWeight: 20, maxWeight: 100 },
        ],
      ],
    ]);
    const { app } = appWith(fleet, prometheus.queryRange, weights);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.findings.map((f) => f.affected[0].name)).toEqual(["r37"]);
  });

  it("asks Rollout by Rollout when Prometheus refuses a batch as a bad query (a scalar template cannot be tagged)", async () => {
    const prometheus = fakePrometheus(new Set(["r37"]), (promql) =>
      promql.includes("label_replace")
        ? new PrometheusError("bad_query", 'bad_data: expected type instant vector in call to function "label_replace", got scalar')
        : null,
    );
    const { app } = appWith(fleet, prometheus.queryRange);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.findings.map((f) => f.affected[0].name)).toEqual(["r37"]);
    expect(result.problems).toEqual([]);
    expect(prometheus.requests).toHaveLength(5 + 2 * 100);
  });

  it("narrows an error one Rollout's query causes down to that Rollout, measuring the rest", async () => {
    const prometheus = fakePrometheus(new Set(["r37"]), (promql) =>
      promql.includes('"r5-canary"') ? new PrometheusError("upstream_error", "execution: many-to-many matching not allowed") : null,
    );
    const { app } = appWith(fleet, prometheus.queryRange);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.findings.map((f) => f.affected[0].name)).toEqual(["r37"]);
    expect(result.problems).toEqual([
      "stuck-router check: 1 Rollout could not be measured (shop/r5: Prometheus query for template Istio (default) for router Istio failed: execution: many-to-many matching not allowed)",
    ]);
    // The batch of r0–r19 halved down to r5 (20, 10, 5, 3, 2, 1): a few requests more, not one per Rollout.
    expect(prometheus.requests.length).toBeLessThan(30);
  });

  it("asks again in halves when a batch times out, down to five Rollouts", async () => {
    const rolloutsIn = (promql: string) => (promql.split('"rollscope_group"').length - 1) / 2;
    const prometheus = fakePrometheus(new Set(["r37"]), (promql) =>
      rolloutsIn(promql) > 5 ? new PrometheusError("timeout", "Prometheus http://prom:9090 did not answer within 10000 ms") : null,
    );
    const { app } = appWith(fleet, prometheus.queryRange);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.problems).toEqual([]);
    expect(result.findings.map((f) => f.affected[0].name)).toEqual(["r37"]);
    // Each batch of 20: itself, its halves of 10, their halves of 5.
    expect(prometheus.requests).toHaveLength(5 * 7);
  });

  it("when Prometheus does not answer, says how many Rollouts went unmeasured, without a request per Rollout", async () => {
    const prometheus = fakePrometheus(
      new Set(["r37"]),
      () => new PrometheusError("timeout", "Prometheus http://prom:9090 did not answer within 10000 ms"),
    );
    const { app, weightReads } = appWith(fleet, prometheus.queryRange);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.findings).toEqual([]);
    expect(result.problems).toEqual([
      "stuck-router check: 100 Rollouts could not be measured (shop/r0: Prometheus query for template Istio (default) for router Istio failed: Prometheus http://prom:9090 did not answer within 10000 ms)",
    ]);
    // Each batch of 20, its halves and their halves: no Rollout asked alone.
    expect(prometheus.requests).toHaveLength(5 * 7);
    expect(weightReads).toEqual([[]]);
  });

  it("when Prometheus is unreachable, fails every Rollout with one request per batch", async () => {
    const prometheus = fakePrometheus(
      new Set(),
      () => new PrometheusError("unreachable", "Prometheus http://prom:9090 is unreachable (ECONNREFUSED)"),
    );
    const { app } = appWith(fleet, prometheus.queryRange);
    const result = await findStuckRouters(app, app.fleet.clusterOrThrow("prod-eu"));
    expect(result.problems).toEqual([
      "stuck-router check: 100 Rollouts could not be measured (shop/r0: Prometheus query for template Istio (default) for router Istio failed: Prometheus http://prom:9090 is unreachable (ECONNREFUSED))",
    ]);
    expect(prometheus.requests).toHaveLength(5);
  });
});
