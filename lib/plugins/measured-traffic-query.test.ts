import { describe, expect, it } from "vitest";
import type { IncreaseSeries } from "@/lib/metrics/types";
import { checkPromqlSyntax, listSelectedMetrics } from "@/lib/prometheus/promql";
import { FIXTURE_NOW, loadRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { toRolloutView } from "@/lib/rollouts/view-model";
import { resolvePluginSettings } from "./effective-settings";
import {
  batchMeasuredTraffic,
  buildMeasuredTrafficBatch,
  chooseStepSeconds,
  measureCanaryShare,
  planMeasuredTraffic,
  splitMeasuredTrafficBatch,
  type MeasuredRollout,
} from "./measured-traffic-query";

// storefront routes through Istio (listed first, so its template wins) and two plugins.
const storefront: MeasuredRollout = toRolloutView(loadRolloutFixture("plugin-and-builtin-router"), FIXTURE_NOW);
const prometheus = { sourceSignal: "Prometheus http://prom:9090", canQueryPromql: true, stableIngress: null };

describe("planMeasuredTraffic", () => {
  it("renders the first router's template with the Rollout's services", () => {
    const plan = planMeasuredTraffic({ ...prometheus, rollout: storefront, settings: resolvePluginSettings(undefined, undefined) });
    expect(plan).toMatchObject({
      ok: true,
      label: "template Istio (default) for router Istio",
      source: "template Istio (default) for router Istio; Prometheus http://prom:9090",
    });
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.canary).toContain('destination_service_namespace="shop", destination_service_name="storefront-canary"}[1m]');
    expect(plan.total).toContain('destination_service_name=~"storefront-canary|storefront-stable"');
  });

  it("says why nothing is measured: no router, no Prometheus, a value the Rollout lacks, a template that is not PromQL", () => {
    const settings = resolvePluginSettings(undefined, undefined);
    expect(planMeasuredTraffic({ ...prometheus, rollout: { ...storefront, trafficRouters: [] }, settings })).toMatchObject({
      ok: false,
      source: "no traffic router",
    });
    expect(planMeasuredTraffic({ ...prometheus, canQueryPromql: false, rollout: storefront, settings })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^measured traffic needs Prometheus/),
    });
    const nginx = { ...storefront, trafficRouters: [{ kind: "builtin" as const, name: "Nginx" as const }] };
    expect(planMeasuredTraffic({ ...prometheus, rollout: nginx, settings })).toMatchObject({
      ok: false,
      error: "plugins.measuredTraffic.templates.Nginx.canary needs ${stableIngress}, which this Rollout does not set",
    });
    const broken = resolvePluginSettings(
      { measuredTraffic: { templates: { Istio: { canary: "sum(rate(x[${window}])", total: "sum(x)" } } } },
      undefined,
    );
    expect(planMeasuredTraffic({ ...prometheus, rollout: storefront, settings: broken })).toMatchObject({
      ok: false,
      source: "template Istio (fleet) for router Istio; Prometheus http://prom:9090",
      error: expect.stringMatching(/^template plugins\.measuredTraffic\.templates\.Istio\.canary is not valid PromQL/),
    });
  });
});

describe("a router Rollscope has no template for", () => {
  it("reads it with the generic template and says what to configure, where a router of its own gets none", () => {
    const settings = resolvePluginSettings(undefined, undefined);
    const unknown = { ...storefront, trafficRouters: [{ kind: "plugin" as const, name: "acme/mesh" }] };
    const plan = planMeasuredTraffic({ ...prometheus, rollout: unknown, settings });
    if (!plan.ok) throw new Error(plan.error);
    expect(plan.label).toBe("template generic (default) for router acme/mesh");
    expect(plan.configureHint).toMatch(/set plugins\.measuredTraffic\.templates\["acme\/mesh"\].*docs\/plugins\.md/);
    const contour = { ...storefront, trafficRouters: [{ kind: "plugin" as const, name: "argoproj-labs/contour" }] };
    const own = planMeasuredTraffic({ ...prometheus, rollout: contour, settings });
    expect(own).toMatchObject({
      ok: true,
      label: "template argoproj-labs/contour (default) for router argoproj-labs/contour",
      configureHint: null,
    });
    if (own.ok) expect(own.canary).toContain('envoy_cluster_name=~"shop_storefront-canary_[0-9]+"');
  });
});

describe("measureCanaryShare", () => {
  it("adds each query's series before dividing, point by point", () => {
    const canary = [
      { labels: { pod: "a" }, values: [1, null] },
      { labels: { pod: "b" }, values: [1, 3] },
    ];
    const total = [
      { labels: {}, values: [8, 6] },
      { labels: {}, values: [2, null] },
    ];
    expect(measureCanaryShare([1_000, 2_000], canary, total)).toEqual([
      { atMs: 1_000, canaryPercent: 20, requestsPerSecond: 10 },
      { atMs: 2_000, canaryPercent: 50, requestsPerSecond: 6 },
    ]);
  });
});

describe("chooseStepSeconds", () => {
  it("keeps a chart near 120 points, never below 15 s", () => {
    expect(chooseStepSeconds(5 * 60_000)).toBe(15);
    expect(chooseStepSeconds(3_600_000)).toBe(30);
    expect(chooseStepSeconds(7 * 24 * 3_600_000)).toBe(3600);
  });
});

describe("batches of measured-traffic queries", () => {
  const queries = (n: number, length = 100) =>
    Array.from({ length: n }, (_, i) => ({ canary: `c${i}`.padEnd(length, "x"), total: `t${i}`.padEnd(length, "x") }));

  it("hold at most so many Rollouts and about so much PromQL, a Rollout longer than that alone", () => {
    expect(batchMeasuredTraffic(queries(5), 2, 100_000)).toEqual([[0, 1], [2, 3], [4]]);
    // Each Rollout is 2 × (100 + 90) characters with its tags: two fit in 800, not three.
    expect(batchMeasuredTraffic(queries(5), 40, 800)).toEqual([[0, 1], [2, 3], [4]]);
    expect(batchMeasuredTraffic(queries(2, 5_000), 40, 800)).toEqual([[0], [1]]);
    expect(batchMeasuredTraffic([], 40, 800)).toEqual([]);
  });

  it("stay one valid query when a template ends in a comment", () => {
    const promql = buildMeasuredTrafficBatch([
      { canary: "sum(rate(a_canary[1m])) # the canary's pods", total: "sum(rate(a_total[1m]))" },
      { canary: "sum(rate(b_canary[1m]))", total: "sum(rate(b_total[1m])) # every pod" },
    ]);
    expect(checkPromqlSyntax(promql)).toBeNull();
    expect(listSelectedMetrics(promql).sort()).toEqual(["a_canary", "a_total", "b_canary", "b_total"]);
  });

  it("tag every answer with its Rollout and query, and sort the answer back without the tags", () => {
    const promql = buildMeasuredTrafficBatch([
      { canary: 'sum(rate(a{svc="x-canary"}[1m]))', total: "sum(rate(a[1m]))" },
      { canary: "sum(rate(b[1m]))", total: "sum(b)" },
    ]);
    expect(promql).toBe(
      'label_replace(label_replace(sum(rate(a{svc="x-canary"}[1m]))\n, "rollscope_part", "canary", "", "")\n, "rollscope_group", "0", "", "") or ' +
        'label_replace(label_replace(sum(rate(a[1m]))\n, "rollscope_part", "total", "", "")\n, "rollscope_group", "0", "", "") or ' +
        'label_replace(label_replace(sum(rate(b[1m]))\n, "rollscope_part", "canary", "", "")\n, "rollscope_group", "1", "", "") or ' +
        'label_replace(label_replace(sum(b)\n, "rollscope_part", "total", "", "")\n, "rollscope_group", "1", "", "")',
    );
    expect(checkPromqlSyntax(promql)).toBeNull();
    const answer: IncreaseSeries[] = [
      { labels: { rollscope_group: "1", rollscope_part: "total" }, values: [4] },
      { labels: { rollscope_group: "0", rollscope_part: "canary", pod: "a" }, values: [1] },
      { labels: { rollscope_group: "0", rollscope_part: "canary", pod: "b" }, values: [2] },
      { labels: { rollscope_group: "0", rollscope_part: "total" }, values: [10] },
      // Not an answer of this batch: left out.
      { labels: { rollscope_group: "7", rollscope_part: "total" }, values: [99] },
      { labels: { rollscope_group: "x", rollscope_part: "total" }, values: [99] },
    ];
    expect(splitMeasuredTrafficBatch(answer, 2)).toEqual([
      {
        canary: [
          { labels: { pod: "a" }, values: [1] },
          { labels: { pod: "b" }, values: [2] },
        ],
        total: [{ labels: {}, values: [10] }],
      },
      { canary: [], total: [{ labels: {}, values: [4] }] },
    ]);
  });
});
