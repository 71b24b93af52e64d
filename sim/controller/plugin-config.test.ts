import { describe, expect, it } from "vitest";
import { readPluginConfig } from "./plugin-config";
import type { KubeObject } from "../store/object-store";

const cm = (data: Record<string, string>): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name: "argo-rollouts-config", resourceVersion: "7" },
  data,
});

describe("argo-rollouts-config", () => {
  it("a missing ConfigMap is an empty config", () => {
    expect(readPluginConfig(undefined)).toEqual({
      ok: true,
      config: { trafficRouterPlugins: [], metricProviderPlugins: [], stepPlugins: [] },
    });
  });

  it("reads YAML and JSON lists of the three keys", () => {
    const result = readPluginConfig(
      cm({
        trafficRouterPlugins:
          '- name: argoproj-labs/gatewayAPI\n  location: https://example.com/gw\n  sha256: abc\n  args: ["-logformat", "json"]\n',
        metricProviderPlugins: '[{"name":"argoproj-labs/sample-prometheus","location":"file:///plugins/m"}]',
        stepPlugins: "- name: argoproj-labs/sample-step\n  location: file:///plugins/s\n  disabled: true\n",
      }),
    );
    expect(result).toEqual({
      ok: true,
      config: {
        trafficRouterPlugins: [
          { name: "argoproj-labs/gatewayAPI", location: "https://example.com/gw", sha256: "abc", args: ["-logformat", "json"] },
        ],
        metricProviderPlugins: [{ name: "argoproj-labs/sample-prometheus", location: "file:///plugins/m" }],
        stepPlugins: [{ name: "argoproj-labs/sample-step", location: "file:///plugins/s", disabled: true }],
        resourceVersion: "7",
      },
    });
  });

  it("fails like the controller's log.Fatalf", () => {
    const fatal = (data: Record<string, string>) => {
      const r = readPluginConfig(cm(data));
      return r.ok ? null : r.fatal;
    };
    expect(fatal({ trafficRouterPlugins: "- name: gatewayAPI\n  location: https://x\n" })).toBe(
      "Failed to init config: validation of config due to (plugin repository (gatewayAPI) must be in the format of <namespace>/<name>)",
    );
    expect(fatal({ trafficRouterPlugins: "just a string" })).toMatch(
      /^Failed to init config: failed to unmarshal traffic router plugins while initializing: .*cannot unmarshal string/,
    );
    expect(fatal({ stepPlugins: "- name: [unclosed" })).toMatch(
      /^Failed to init config: failed to unmarshal step plugins while initializing: error converting YAML to JSON/,
    );
    expect(fatal({ trafficRouterPlugins: "- name: a/b\n  location: ftp://x\n" })).toBe(
      "Failed to download plugins: plugin location must be of http(s) or file scheme",
    );
    expect(fatal({ trafficRouterPlugins: "- name: a/b\n  location: https://x\n  disabled: true\n" })).toMatch(
      /only supported for step plugins/,
    );
  });
});
