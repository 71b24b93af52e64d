import { describe, expect, it } from "vitest";
import { parsePluginConfigMap, type PluginConfig } from "@/lib/plugins/config";
import { deriveFleetPluginFindings, derivePluginFindings, type AffectedObject, type Finding } from "@/lib/plugins/findings";
import { collectPluginUsage, type AnalysisTemplateLike, type PluginUsage, type RolloutLike } from "@/lib/plugins/usage";
import { loadConfigMapFixture } from "@/test/fixtures/configmaps/load-config-map-fixture";

const CLUSTER = "prod-eu";
const RESTART = "kubectl rollout restart deployment -n argo-rollouts argo-rollouts";

function routedBy(namespace: string, name: string, ...plugins: string[]): RolloutLike {
  const config = Object.fromEntries(plugins.map((plugin) => [plugin, {}]));
  return { metadata: { name, namespace }, spec: { strategy: { canary: { trafficRouting: { plugins: config } } } } };
}

const checkout: RolloutLike = {
  metadata: { name: "checkout", namespace: "shop" },
  spec: {
    strategy: {
      canary: {
        trafficRouting: { plugins: { "argoproj-labs/gatewayAPI": { httpRoute: "checkout-route" } } },
        steps: [{ plugin: { name: "argoproj-labs/step-exec" } }, { analysis: { templates: [{ templateName: "success-rate" }] } }],
      },
    },
  },
};

const successRate: AnalysisTemplateLike = {
  kind: "AnalysisTemplate",
  metadata: { name: "success-rate", namespace: "shop" },
  spec: { metrics: [{ name: "ok", provider: { plugin: { "argoproj-labs/sample-prometheus": { query: "up" } } } }] },
};

/** Every plugin of valid.yaml in use. */
const FULL_USAGE = collectPluginUsage(
  [
    checkout,
    routedBy("shop", "payments", "argoproj-labs/contour"),
    routedBy("web", "legacy", "argoproj-labs/openshift"),
    routedBy("edge", "storefront", "solo-io/glooplatform"),
    routedBy("mesh", "ledger", "hashicorp/consul"),
  ],
  [successRate],
);

const NO_USAGE: PluginUsage = { references: [] };

function configOf(fixture: string): PluginConfig {
  return parsePluginConfigMap(loadConfigMapFixture(fixture));
}

/** What a finding is about; prose is checked separately where it matters. */
function summarize(findings: readonly Finding[]) {
  return findings.map(({ id, severity, kind, affected, suggestedName }) => ({
    id,
    severity,
    kind,
    affected,
    ...(suggestedName === undefined ? {} : { suggestedName }),
  }));
}

function configMapAffected(plugin?: string, cluster = CLUSTER, namespace = "argo-rollouts"): AffectedObject {
  return {
    cluster,
    namespace,
    name: "argo-rollouts-config",
    resourceKind: "ConfigMap",
    ...(plugin === undefined ? {} : { plugin }),
  };
}

function rolloutAffected(namespace: string, name: string, plugin: string): AffectedObject {
  return { cluster: CLUSTER, namespace, name, plugin, resourceKind: "Rollout" };
}

describe("derivePluginFindings", () => {
  it("valid.yaml with every plugin in use and a controller started after the last change: nothing to report", () => {
    const findings = derivePluginFindings({
      cluster: CLUSTER,
      config: configOf("valid"),
      usage: FULL_USAGE,
      controllerStartedAt: "2026-08-18T10:00:00Z",
    });
    expect(findings).toEqual([]);
  });

  it("flags a restart when the ConfigMap changed after the controller started", () => {
    const findings = derivePluginFindings({
      cluster: CLUSTER,
      config: configOf("valid"),
      usage: FULL_USAGE,
      controllerStartedAt: new Date("2026-08-10T00:00:00Z"),
    });
    expect(summarize(findings)).toEqual([
      { id: "restart-needed/prod-eu", severity: "warning", kind: "restart-needed", affected: [configMapAffected()] },
    ]);
    expect(findings[0].detail).toContain("changed at 2026-08-18T09:12:44.000Z, after the controller started at 2026-08-10T00:00:00.000Z");
    expect(findings[0].fix).toBe(`Restart the controller: ${RESTART}`);
  });

  it("lists registered plugins nobody references as info", () => {
    const usage = collectPluginUsage([checkout, routedBy("shop", "payments", "argoproj-labs/contour")], [successRate]);
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("valid"), usage });
    expect(summarize(findings)).toEqual(
      ["argoproj-labs/openshift", "solo-io/glooplatform", "hashicorp/consul"].map((plugin) => ({
        id: `registered-unused/prod-eu/trafficRouter/${plugin}`,
        severity: "info",
        kind: "registered-unused",
        affected: [configMapAffected(plugin)],
      })),
    );
  });

  it("reports unregistered references as critical, with name hints for case, org and plugin-type mix-ups", () => {
    const usage = collectPluginUsage(
      [
        checkout,
        routedBy("shop", "payments", "argoproj-labs/contour"),
        routedBy("web", "legacy", "argoproj-labs/openshift"),
        routedBy("edge", "storefront", "solo-io/glooplatform"),
        routedBy("mesh", "ledger", "argoproj-labs/consul"),
        routedBy("mesh", "ledger-v2", "argoproj-labs/consul"),
        routedBy("shop", "cart", "argoproj-labs/gatewayapi"),
        routedBy("shop", "search", "acme/unknown"),
        {
          metadata: { name: "promo", namespace: "shop" },
          spec: { strategy: { canary: { steps: [{ plugin: { name: "argoproj-labs/contour" } }] } } },
        },
      ],
      [successRate],
    );
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("valid"), usage });
    expect(summarize(findings)).toEqual([
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/argoproj-labs/consul",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("mesh", "ledger", "argoproj-labs/consul"), rolloutAffected("mesh", "ledger-v2", "argoproj-labs/consul")],
      },
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/argoproj-labs/gatewayapi",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "cart", "argoproj-labs/gatewayapi")],
      },
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/acme/unknown",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "search", "acme/unknown")],
      },
      {
        id: "referenced-not-registered/prod-eu/step/argoproj-labs/contour",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "promo", "argoproj-labs/contour")],
      },
      {
        id: "key-mismatch-hint/prod-eu/trafficRouter/argoproj-labs/consul",
        severity: "warning",
        kind: "key-mismatch-hint",
        affected: [rolloutAffected("mesh", "ledger", "argoproj-labs/consul"), rolloutAffected("mesh", "ledger-v2", "argoproj-labs/consul")],
        suggestedName: "hashicorp/consul",
      },
      {
        id: "key-mismatch-hint/prod-eu/trafficRouter/argoproj-labs/gatewayapi",
        severity: "warning",
        kind: "key-mismatch-hint",
        affected: [rolloutAffected("shop", "cart", "argoproj-labs/gatewayapi")],
        suggestedName: "argoproj-labs/gatewayAPI",
      },
      {
        id: "key-mismatch-hint/prod-eu/step/argoproj-labs/contour",
        severity: "warning",
        kind: "key-mismatch-hint",
        affected: [rolloutAffected("shop", "promo", "argoproj-labs/contour")],
        suggestedName: "argoproj-labs/contour",
      },
      {
        id: "registered-unused/prod-eu/trafficRouter/hashicorp/consul",
        severity: "info",
        kind: "registered-unused",
        affected: [configMapAffected("hashicorp/consul")],
      },
    ]);

    const byId = new Map(findings.map((finding) => [finding.id, finding]));
    const unknown = byId.get("referenced-not-registered/prod-eu/trafficRouter/acme/unknown");
    expect(unknown?.detail).toBe(
      "Rollout shop/search references traffic-router plugin acme/unknown, but data.trafficRouterPlugins in " +
        "argo-rollouts-config has no entry with that exact name. Every time the controller needs the plugin it " +
        'fails with "plugin acme/unknown not configured in configmap".',
    );
    expect(unknown?.fix).toBe(
      "Add `- name: acme/unknown` with its location to data.trafficRouterPlugins in argo-rollouts-config " +
        `(namespace argo-rollouts) and restart the controller: ${RESTART}`,
    );
    expect(byId.get("referenced-not-registered/prod-eu/trafficRouter/argoproj-labs/consul")?.fix).toBe(
      "Change the key `argoproj-labs/consul` to `hashicorp/consul` in Rollout mesh/ledger, Rollout mesh/ledger-v2. " +
        "Or: Add `- name: argoproj-labs/consul` with its location to data.trafficRouterPlugins in argo-rollouts-config " +
        `(namespace argo-rollouts) and restart the controller: ${RESTART}`,
    );
    expect(byId.get("key-mismatch-hint/prod-eu/trafficRouter/argoproj-labs/gatewayapi")?.detail).toBe(
      "argoproj-labs/gatewayapi differs only by letter case from the registered argoproj-labs/gatewayAPI; plugin names are matched exactly.",
    );
    expect(byId.get("key-mismatch-hint/prod-eu/step/argoproj-labs/contour")?.fix).toContain(
      "Move the argoproj-labs/contour entry from data.trafficRouterPlugins to data.stepPlugins",
    );
  });

  it("without a ConfigMap, says to create it and points well-known plugins at their releases and right key", () => {
    const usage = collectPluginUsage(
      [routedBy("shop", "checkout", "argoproj-labs/gatewayAPI"), routedBy("mesh", "ledger", "argoproj-labs/consul")],
      [],
    );
    const findings = derivePluginFindings({ cluster: CLUSTER, config: parsePluginConfigMap(null), usage });
    expect(summarize(findings)).toEqual([
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/argoproj-labs/gatewayAPI",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "checkout", "argoproj-labs/gatewayAPI")],
      },
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/argoproj-labs/consul",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("mesh", "ledger", "argoproj-labs/consul")],
      },
      {
        id: "key-mismatch-hint/prod-eu/trafficRouter/argoproj-labs/consul",
        severity: "warning",
        kind: "key-mismatch-hint",
        affected: [rolloutAffected("mesh", "ledger", "argoproj-labs/consul")],
        suggestedName: "hashicorp/consul",
      },
    ]);
    expect(findings[0].fix).toBe(
      "Create ConfigMap argo-rollouts-config (namespace argo-rollouts) with `- name: argoproj-labs/gatewayAPI` and its " +
        "location (release binaries: https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi/releases) " +
        `under data.trafficRouterPlugins and restart the controller: ${RESTART}`,
    );
    // Registering argoproj-labs/consul would not help: the plugin reads hashicorp/consul, so that is the only fix offered.
    expect(findings[1].fix).toBe(findings[2].fix);
    expect(findings[1].fix).toContain("Register it as `- name: hashicorp/consul`");
  });

  it("malformed-yaml.yaml: one crash-loop finding for the key, and no 'not registered' noise for its plugins", () => {
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("malformed-yaml"), usage: FULL_USAGE });
    expect(summarize(findings)).toEqual([
      {
        id: "invalid-yaml/prod-eu/trafficRouterPlugins",
        severity: "critical",
        kind: "invalid-yaml",
        affected: [configMapAffected()],
      },
      {
        id: "referenced-not-registered/prod-eu/step/argoproj-labs/step-exec",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "checkout", "argoproj-labs/step-exec")],
      },
    ]);
    expect(findings[0].detail).toContain("Flow sequence in block collection must be sufficiently indented");
    expect(findings[0].detail).toContain("crash-loops");
  });

  it("bad-name.yaml: one critical finding per invalid name; a Rollout using the bad name is not double-reported", () => {
    const usage = collectPluginUsage([routedBy("shop", "checkout", "gatewayAPI")], []);
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("bad-name"), usage });
    expect(summarize(findings)).toEqual([
      ...[
        [0, "gatewayAPI"],
        [1, "argoproj_labs/contour"],
        [2, "argoproj-labs/openshift/v2"],
        [3, undefined],
      ].map(([index, plugin]) => ({
        id: `invalid-entry/prod-eu/trafficRouterPlugins[${index}]/name`,
        severity: "critical",
        kind: "invalid-entry",
        affected: [configMapAffected(plugin as string | undefined)],
      })),
      {
        id: "registered-unused/prod-eu/trafficRouter/argoproj-labs/sample-nginx",
        severity: "info",
        kind: "registered-unused",
        affected: [configMapAffected("argoproj-labs/sample-nginx")],
      },
    ]);
    expect(findings[0].detail).toContain("crash-loops");
    expect(findings[0].fix).toBe(
      "In data.trafficRouterPlugins[0] of argo-rollouts-config (namespace argo-rollouts): Give the entry a name of the " +
        'form <org>/<name> (org: letters, digits, "-"; name: letters, digits, "_", "-", "."), e.g. ' +
        "`argoproj-labs/gatewayAPI`, and use the same key in the Rollouts. " +
        `Then restart the controller: ${RESTART}`,
    );
  });

  it("bad-location-scheme.yaml: ftp://, s3://, scheme-less and missing locations are each critical", () => {
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("bad-location-scheme"), usage: FULL_USAGE });
    expect(summarize(findings)).toEqual([
      ...["argoproj-labs/gatewayAPI", "argoproj-labs/contour", "argoproj-labs/openshift", "solo-io/glooplatform"].map((plugin, index) => ({
        id: `invalid-entry/prod-eu/trafficRouterPlugins[${index}]/location`,
        severity: "critical",
        kind: "invalid-entry",
        affected: [configMapAffected(plugin)],
      })),
      {
        id: "referenced-not-registered/prod-eu/step/argoproj-labs/step-exec",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "checkout", "argoproj-labs/step-exec")],
      },
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/hashicorp/consul",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("mesh", "ledger", "hashicorp/consul")],
      },
    ]);
    expect(findings[0].title).toBe("Invalid traffic-router plugin entry argoproj-labs/gatewayAPI: location");
    expect(findings[0].detail).toContain('uses unsupported scheme "ftp"');
  });

  it("duplicates.yaml: different binaries under one name are critical, identical copies a warning", () => {
    const usage = collectPluginUsage([checkout, routedBy("shop", "payments", "argoproj-labs/contour")], []);
    const findings = derivePluginFindings({
      cluster: CLUSTER,
      config: configOf("duplicates"),
      usage: { references: usage.references.filter((ref) => ref.kind === "trafficRouter") },
    });
    expect(summarize(findings)).toEqual([
      {
        id: "duplicate-name/prod-eu/argoproj-labs/gatewayAPI",
        severity: "critical",
        kind: "duplicate-name",
        affected: [configMapAffected("argoproj-labs/gatewayAPI")],
      },
      {
        id: "duplicate-name/prod-eu/argoproj-labs/contour",
        severity: "warning",
        kind: "duplicate-name",
        affected: [configMapAffected("argoproj-labs/contour")],
      },
    ]);
    expect(findings[0].detail).toContain("plugin-bin/argoproj-labs/gatewayAPI");
    expect(findings[1].fix).toBe(
      `Delete data.trafficRouterPlugins[3] in argo-rollouts-config (namespace argo-rollouts), then restart the controller: ${RESTART}`,
    );
  });

  it("missing-sha256.yaml: warns for http(s) downloads without sha256, not for file:// or pinned ones", () => {
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("missing-sha256"), usage: FULL_USAGE });
    expect(summarize(findings)).toEqual([
      {
        id: "referenced-not-registered/prod-eu/step/argoproj-labs/step-exec",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("shop", "checkout", "argoproj-labs/step-exec")],
      },
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/solo-io/glooplatform",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("edge", "storefront", "solo-io/glooplatform")],
      },
      {
        id: "referenced-not-registered/prod-eu/trafficRouter/hashicorp/consul",
        severity: "critical",
        kind: "referenced-not-registered",
        affected: [rolloutAffected("mesh", "ledger", "hashicorp/consul")],
      },
      {
        id: "missing-sha256/prod-eu/trafficRouter/argoproj-labs/gatewayAPI",
        severity: "warning",
        kind: "missing-sha256",
        affected: [configMapAffected("argoproj-labs/gatewayAPI")],
      },
      {
        id: "missing-sha256/prod-eu/trafficRouter/argoproj-labs/contour",
        severity: "warning",
        kind: "missing-sha256",
        affected: [configMapAffected("argoproj-labs/contour")],
      },
    ]);
    expect(findings.find((f) => f.id.endsWith("/argoproj-labs/contour"))?.detail).toContain("over plain http");
  });

  it("json-format.yaml: JSON lists behave like YAML ones; a disabled step plugin is fine", () => {
    const usage = collectPluginUsage([checkout], [successRate]);
    const findings = derivePluginFindings({ cluster: CLUSTER, config: configOf("json-format"), usage });
    expect(findings).toEqual([]);
  });

  it("bad-fields.yaml: every bad field is critical, and disabled on a traffic router is a warning", () => {
    const findings = derivePluginFindings({
      cluster: CLUSTER,
      config: configOf("bad-fields"),
      usage: collectPluginUsage([routedBy("web", "legacy", "argoproj-labs/openshift")], []),
    });
    expect(summarize(findings)).toEqual(
      [
        ["trafficRouterPlugins[0]/sha256", "argoproj-labs/gatewayAPI"],
        ["trafficRouterPlugins[1]/sha256", "argoproj-labs/contour"],
        ["trafficRouterPlugins[1]/args", "argoproj-labs/contour"],
        ["trafficRouterPlugins[3]/headersFrom[0].secretRef", "hashicorp/consul"],
        ["trafficRouterPlugins[4]/entry", undefined],
        ["stepPlugins[0]/disabled", "argoproj-labs/step-exec"],
      ]
        .map(([path, plugin]) => ({
          id: `invalid-entry/prod-eu/${path}`,
          severity: "critical",
          kind: "invalid-entry",
          affected: [configMapAffected(plugin)],
        }))
        .concat([
          {
            id: "disabled-on-non-step/prod-eu/trafficRouter/argoproj-labs/openshift",
            severity: "warning",
            kind: "disabled-on-non-step",
            affected: [configMapAffected("argoproj-labs/openshift")],
          },
        ]),
    );
  });

  it("empty.yaml with nothing referenced: nothing to report", () => {
    expect(derivePluginFindings({ cluster: CLUSTER, config: configOf("empty"), usage: NO_USAGE })).toEqual([]);
  });

  it("flags a known plugin registered under a key its binary does not read", () => {
    const config = parsePluginConfigMap({
      metadata: { name: "argo-rollouts-config", namespace: "argo-rollouts", resourceVersion: "9" },
      data: {
        trafficRouterPlugins: [
          "- name: argoproj-labs/consul",
          "  location: https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-consul/releases/download/v0.0.1/consul-plugin-linux-amd64",
          "  sha256: 2e1025a6f0aa4c8ef105d6e89a8fd408c34ef2297f182f51549e498810be3c61",
        ].join("\n"),
      },
    });
    const usage = collectPluginUsage([routedBy("mesh", "ledger", "argoproj-labs/consul")], []);
    const findings = derivePluginFindings({ cluster: CLUSTER, config, usage });
    expect(summarize(findings)).toEqual([
      {
        id: "key-mismatch-hint/prod-eu/registered/argoproj-labs/consul",
        severity: "warning",
        kind: "key-mismatch-hint",
        affected: [configMapAffected("argoproj-labs/consul")],
        suggestedName: "hashicorp/consul",
      },
    ]);
    expect(findings[0].detail).toContain('trafficRouting.plugins["hashicorp/consul"]');
  });
});

describe("deriveFleetPluginFindings", () => {
  it("adds drift for the same plugin with a different location or sha256 across clusters", () => {
    const edgeUsage = collectPluginUsage([checkout], [successRate]);
    const findings = deriveFleetPluginFindings([
      { cluster: "prod-eu", config: configOf("valid"), usage: FULL_USAGE },
      { cluster: "prod-us", config: configOf("valid"), usage: FULL_USAGE },
      { cluster: "edge", config: configOf("json-format"), usage: edgeUsage },
    ]);
    const everywhere = (plugin: string) => [
      configMapAffected(plugin, "prod-eu"),
      configMapAffected(plugin, "prod-us"),
      configMapAffected(plugin, "edge", "rollouts-system"),
    ];
    expect(summarize(findings)).toEqual([
      {
        id: "drift-across-clusters/trafficRouter/argoproj-labs/gatewayAPI",
        severity: "warning",
        kind: "drift-across-clusters",
        affected: everywhere("argoproj-labs/gatewayAPI"),
      },
      {
        id: "drift-across-clusters/metricProvider/argoproj-labs/sample-prometheus",
        severity: "warning",
        kind: "drift-across-clusters",
        affected: everywhere("argoproj-labs/sample-prometheus"),
      },
    ]);
    expect(findings[0].detail).toContain(
      "edge: https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi/releases/download/v0.15.0/gatewayapi-plugin-linux-arm64",
    );
    expect(findings[0].fix).toBe(
      "Use one location and sha256 for argoproj-labs/gatewayAPI in data.trafficRouterPlugins of argo-rollouts-config " +
        "everywhere, e.g. location https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi/releases/download/v0.15.0/gatewayapi-plugin-linux-amd64 " +
        "with sha256 0964fe950b4721a91c3eaef98cfd2f3bc142e7e6533cdcc80d57410a07ccf782; change it in edge and restart " +
        "each changed controller: kubectl rollout restart deployment -n rollouts-system argo-rollouts (edge)",
    );
  });

  it("includes each cluster's own findings, most severe first", () => {
    const findings = deriveFleetPluginFindings([
      { cluster: "prod-eu", config: configOf("valid"), usage: FULL_USAGE, controllerStartedAt: "2026-08-01T00:00:00Z" },
      { cluster: "prod-us", config: configOf("bad-name"), usage: NO_USAGE },
    ]);
    expect(findings.map((finding) => [finding.severity, finding.kind, finding.affected[0].cluster])).toEqual([
      ["critical", "invalid-entry", "prod-us"],
      ["critical", "invalid-entry", "prod-us"],
      ["critical", "invalid-entry", "prod-us"],
      ["critical", "invalid-entry", "prod-us"],
      ["warning", "restart-needed", "prod-eu"],
      ["info", "registered-unused", "prod-us"],
    ]);
  });
});
