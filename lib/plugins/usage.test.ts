import { describe, expect, it } from "vitest";
import { collectPluginUsage, type AnalysisTemplateLike, type RolloutLike } from "@/lib/plugins/usage";

// A plain object, as a parsed CR would be: fields the structural type does not name are allowed.
const checkoutSpec = {
  strategy: {
    canary: {
      analysis: { templates: [{ templateName: "error-rate" }] },
      trafficRouting: {
        managedRoutes: [{ name: "header-canary" }],
        plugins: { "argoproj-labs/gatewayAPI": { httpRoute: "checkout-route", namespace: "shop" } },
      },
      steps: [
        { setWeight: 10 },
        { plugin: { name: "argoproj-labs/step-exec", config: { command: "smoke" } } },
        { analysis: { templates: [{ templateName: "success-rate" }, { templateName: "latency", clusterScope: true }] } },
        { experiment: { analyses: [{ name: "exp", templateName: "success-rate" }] } },
        { plugin: { name: "argoproj-labs/step-exec" } },
      ],
    },
  },
};

const checkout: RolloutLike = { metadata: { name: "checkout", namespace: "shop" }, spec: checkoutSpec };

const templates: AnalysisTemplateLike[] = [
  {
    kind: "AnalysisTemplate",
    metadata: { name: "success-rate", namespace: "shop" },
    spec: {
      metrics: [
        { name: "prom", provider: { plugin: { "argoproj-labs/sample-prometheus": { query: "up" } } } },
        { name: "web", provider: null },
      ],
    },
  },
  // Same name in another namespace: must not be attributed to shop/checkout.
  {
    kind: "AnalysisTemplate",
    metadata: { name: "success-rate", namespace: "other" },
    spec: { metrics: [{ provider: { plugin: { "acme/datadog": {} } } }] },
  },
  {
    metadata: { name: "latency" },
    spec: { metrics: [{ provider: { plugin: { "argoproj-labs/sample-prometheus": {} } } }] },
  },
  { kind: "AnalysisTemplate", metadata: { name: "error-rate", namespace: "shop" }, spec: { metrics: [{ provider: {} }] } },
];

describe("collectPluginUsage", () => {
  it("finds traffic routers, step plugins and metric plugins reached through templates", () => {
    const rollout = { kind: "Rollout" as const, name: "checkout", namespace: "shop" };
    expect(collectPluginUsage([checkout], templates).references).toEqual([
      {
        plugin: "argoproj-labs/sample-prometheus",
        kind: "metricProvider",
        resource: { kind: "AnalysisTemplate", name: "success-rate", namespace: "shop" },
        path: "spec.metrics[0].provider.plugin",
      },
      {
        plugin: "acme/datadog",
        kind: "metricProvider",
        resource: { kind: "AnalysisTemplate", name: "success-rate", namespace: "other" },
        path: "spec.metrics[0].provider.plugin",
      },
      {
        plugin: "argoproj-labs/sample-prometheus",
        kind: "metricProvider",
        resource: { kind: "ClusterAnalysisTemplate", name: "latency" },
        path: "spec.metrics[0].provider.plugin",
      },
      {
        plugin: "argoproj-labs/gatewayAPI",
        kind: "trafficRouter",
        resource: rollout,
        path: "spec.strategy.canary.trafficRouting.plugins",
      },
      {
        plugin: "argoproj-labs/step-exec",
        kind: "step",
        resource: rollout,
        path: "spec.strategy.canary.steps[1].plugin.name",
      },
      {
        plugin: "argoproj-labs/step-exec",
        kind: "step",
        resource: rollout,
        path: "spec.strategy.canary.steps[4].plugin.name",
      },
      {
        plugin: "argoproj-labs/sample-prometheus",
        kind: "metricProvider",
        resource: rollout,
        path: "spec.strategy.canary.steps[2].analysis.templates[0]",
        viaTemplate: { kind: "AnalysisTemplate", name: "success-rate" },
      },
      {
        plugin: "argoproj-labs/sample-prometheus",
        kind: "metricProvider",
        resource: rollout,
        path: "spec.strategy.canary.steps[2].analysis.templates[1]",
        viaTemplate: { kind: "ClusterAnalysisTemplate", name: "latency" },
      },
      {
        plugin: "argoproj-labs/sample-prometheus",
        kind: "metricProvider",
        resource: rollout,
        path: "spec.strategy.canary.steps[3].experiment.analyses[0]",
        viaTemplate: { kind: "AnalysisTemplate", name: "success-rate" },
      },
    ]);
  });

  it("follows blue-green pre- and post-promotion analyses", () => {
    const blueGreen: RolloutLike = {
      metadata: { name: "billing", namespace: "shop" },
      spec: {
        strategy: {
          blueGreen: {
            prePromotionAnalysis: { templates: [{ templateName: "latency", clusterScope: true }] },
            postPromotionAnalysis: { templates: [{ templateName: "success-rate" }] },
          },
        },
      },
    };
    expect(
      collectPluginUsage([blueGreen], templates)
        .references.filter((ref) => ref.resource.kind === "Rollout")
        .map((ref) => [ref.plugin, ref.path, ref.viaTemplate?.name]),
    ).toEqual([
      ["argoproj-labs/sample-prometheus", "spec.strategy.blueGreen.prePromotionAnalysis.templates[0]", "latency"],
      ["argoproj-labs/sample-prometheus", "spec.strategy.blueGreen.postPromotionAnalysis.templates[0]", "success-rate"],
    ]);
  });

  it("tolerates Rollouts without a strategy, nulls and steps without plugins", () => {
    const bare: RolloutLike[] = [
      { metadata: { name: "a", namespace: "x" } },
      { metadata: { name: "b", namespace: "x" }, spec: { strategy: { canary: { trafficRouting: { plugins: null }, steps: null } } } },
      { metadata: { name: "c", namespace: "x" }, spec: { strategy: { canary: { steps: [{ plugin: null }, { plugin: {} }] } } } },
    ];
    expect(collectPluginUsage(bare, []).references).toEqual([]);
  });
});
