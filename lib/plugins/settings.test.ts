import { describe, expect, it } from "vitest";
import { rollscopeConfigSchema } from "@/lib/config/schema";
import { resolvePluginSettings, sloTargetOf } from "./effective-settings";
import { checkPluginTemplates } from "./template-check";

const base = { clusters: [{ name: "prod-eu", kubeconfig: { context: "prod-eu" } }] };

describe("plugin settings in the Rollscope config", () => {
  it("accepts the documented example and layers cluster over fleet over defaults", () => {
    const config = rollscopeConfigSchema.parse({
      ...base,
      plugins: { slo: { target: 0.995 }, stuckRouter: { tolerancePercent: 15 } },
      clusters: [
        {
          name: "prod-eu",
          kubeconfig: { context: "prod-eu" },
          plugins: {
            slo: { plugins: { "argoproj-labs/contour": 0.95 } },
            measuredTraffic: {
              window: "2m",
              templates: {
                "argoproj-labs/gatewayAPI": { canary: 'sum(rate(x{s="${canaryService}"}[${window}]))', total: "sum(rate(x[${window}]))" },
              },
            },
            perRpc: { callsMetric: "rollscope_sim_plugin_rpc_total", durationMetric: "rollscope_sim_plugin_rpc_duration_seconds" },
          },
        },
      ],
    });
    const settings = resolvePluginSettings(config.plugins, config.clusters[0].plugins);
    expect(settings.sloTarget).toBe(0.995);
    expect(sloTargetOf(settings, "argoproj-labs/contour")).toBe(0.95);
    expect(settings.stuckRouter).toEqual({ tolerancePercent: 15, forSeconds: 120 });
    expect(settings.measuredTraffic.window).toBe("2m");
    expect(settings.perRpc?.successOutcomes).toEqual(["success", "not_implemented"]);
    expect(config.metrics.scrape.intervalSeconds).toBe(15);
  });

  it("rejects unknown variables, bad SLOs and per-RPC settings without a source, naming the field", () => {
    const result = rollscopeConfigSchema.safeParse({
      ...base,
      plugins: {
        slo: { target: 99 },
        measuredTraffic: { templates: { Istio: { canary: 'x{a="${canarySvc}"}', total: "y" } } },
        perRpc: { durationMetric: "d" },
      },
    });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    expect(issues).toEqual(
      expect.arrayContaining([
        "plugins.slo.target: must be below 1 (e.g. 0.99)",
        expect.stringMatching(/^plugins\.measuredTraffic\.templates\.Istio\.canary: uses unknown variable \$\{canarySvc\}/),
        expect.stringMatching(/^plugins\.perRpc: set callsMetric/),
      ]),
    );
  });

  it("reports configured templates that are not valid PromQL by name", () => {
    const settings = resolvePluginSettings(
      { measuredTraffic: { templates: { Istio: { canary: "sum(rate(x[${window}])", total: "sum(rate(x[${window}]))" } } } },
      undefined,
    );
    expect(checkPluginTemplates("prod-eu", settings)).toEqual([
      {
        cluster: "prod-eu",
        template: "plugins.measuredTraffic.templates.Istio.canary",
        message: expect.stringMatching(/^template plugins\.measuredTraffic\.templates\.Istio\.canary is not valid PromQL: unexpected/),
      },
    ]);
  });
});
