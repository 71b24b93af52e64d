import { describe, expect, it } from "vitest";
import { classifyPluginRpcMethod, explainPluginError } from "@/lib/plugins/troubleshooting";

const START = "roCtx.reconcile err failed to get traffic router plugin argoproj-labs/gatewayAPI: unable to start plugin system:";
const GW =
  "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi/releases/download/v0.15.0/gatewayapi-plugin-linux-amd64";
const FORBIDDEN =
  'httproutes.gateway.networking.k8s.io "checkout-route" is forbidden: User "system:serviceaccount:argo-rollouts:argo-rollouts" cannot update resource "httproutes"';

// Real message shapes: controller wrappers (rollout/trafficrouting/plugin/plugin.go), downloader and config errors,
// go-plugin client errors, and WeightVerifyError / TrafficRoutingError event messages.
const CASES: ReadonlyArray<[message: string, code: string, method: string]> = [
  ["plugin argoproj-labs/gatewayAPI not configured in configmap", "not-configured", "Start"],
  [`${START} plugin argoproj-labs/gatewayAPI not configured in configmap`, "not-configured", "Start"],
  [`${START} Stdout already set`, "stdout-already-set", "Start"],
  [`${START} fork/exec /home/argo-rollouts/plugin-bin/argoproj-labs/gatewayAPI: exec format error`, "exec-format-error", "Start"],
  [
    `${START} could not ping plugin will cleanup process so we can restart it next reconcile (connection is shut down)`,
    "ping-failed",
    "Start",
  ],
  [`${START} plugin exited before we could connect`, "plugin-exited", "Start"],
  [`${START} Unrecognized remote plugin message: hello`, "plugin-exited", "Start"],
  [`${START} InitPlugin rpc call error: unexpected EOF`, "rpc-call-error", "Start"],
  [`${START} context deadline exceeded`, "unable-to-start", "Start"],
  [`sha256 hash of downloaded plugin (${GW}) does not match expected hash`, "sha256-mismatch", "Unknown"],
  ["plugin download failed: checksum mismatch", "sha256-mismatch", "Unknown"],
  [`failed to download plugin from ${GW}: status code 403 Forbidden`, "download-unauthorized", "Unknown"],
  [`failed to download plugin from ${GW}: unexpected status 404 Not Found`, "download-not-found", "Unknown"],
  [
    `failed to download plugin from ${GW}: failed to download file from ${GW}: Get "${GW}": dial tcp: lookup github.com: no such host`,
    "download-network",
    "Unknown",
  ],
  [`failed to download plugin from ${GW}: failed to write to file: unexpected EOF`, "download-failed", "Unknown"],
  [
    "failed to copy plugin from /plugins/openshift to /home/argo-rollouts/plugin-bin/argoproj-labs/openshift: failed to get file stat of /plugins/openshift: stat /plugins/openshift: no such file or directory",
    "file-plugin-missing",
    "Unknown",
  ],
  ["plugin location must be of http(s) or file scheme", "invalid-location-scheme", "Unknown"],
  [
    "validation of config due to (plugin repository (gatewayAPI) must be in the format of <namespace>/<name>)",
    "invalid-plugin-name",
    "Unknown",
  ],
  [
    "failed to unmarshal traffic router plugins while initializing: error converting YAML to JSON: yaml: line 3: did not find expected ',' or ']'",
    "invalid-config-yaml",
    "Unknown",
  ],
  [`failed to set weight via plugin: ${FORBIDDEN}`, "plugin-forbidden", "SetWeight"],
  ["failed to set weight via plugin: SetWeight rpc call error: connection is shut down", "rpc-call-error", "SetWeight"],
  ['failed to set weight via plugin: httproutes.gateway.networking.k8s.io "checkout-route" not found', "set-weight-failed", "SetWeight"],
  ["Failed to verify weight: failed to verify weight via plugin: weights do not match", "verify-weight-failed", "VerifyWeight"],
  ["failed to update hash via plugin: service checkout-canary not found", "update-hash-failed", "UpdateHash"],
  ["failed to set header route via plugin: route header-canary is not in managedRoutes", "set-header-route-failed", "SetHeaderRoute"],
  ["failed to set mirror route via plugin: not supported", "set-mirror-route-failed", "SetMirrorRoute"],
  ["failed to remove managed routes via plugin: route table not found", "remove-managed-routes-failed", "RemoveManagedRoutes"],
  ["Type rpc call error: unexpected EOF", "rpc-call-error", "Unknown"],
];

describe("explainPluginError", () => {
  it.each(CASES)("%s → %s", (message, code) => {
    const explanation = explainPluginError(message);
    expect(explanation?.code).toBe(code);
    expect(explanation?.cause).not.toBe("");
    expect(explanation?.fix).not.toBe("");
  });

  it("returns null for text that is not a plugin error", () => {
    expect(explainPluginError("Rollout is paused")).toBeNull();
    expect(explainPluginError("")).toBeNull();
  });

  it("names the missing plugin and the known key confusion in the fix", () => {
    expect(explainPluginError(`${START} plugin argoproj-labs/consul not configured in configmap`)).toEqual({
      code: "not-configured",
      cause:
        "The resource references plugin argoproj-labs/consul, but the controller's loaded configuration has no entry " +
        "with that exact name for this plugin type. Names are matched case-sensitively, and the ConfigMap is read only at start-up.",
      fix:
        "Add `- name: argoproj-labs/consul` with its location to the matching data key (trafficRouterPlugins, " +
        "metricProviderPlugins or stepPlugins) of argo-rollouts-config, or fix the key in the Rollout " +
        "(e.g. `hashicorp/consul`, not `argoproj-labs/consul`), then restart the controller: " +
        "kubectl rollout restart deployment -n argo-rollouts argo-rollouts",
      docs: "https://argo-rollouts.readthedocs.io/en/stable/features/traffic-management/plugins/",
    });
  });

  it("points Stdout already set at #3918 and an upgrade", () => {
    const explanation = explainPluginError(`${START} Stdout already set`);
    expect(explanation?.docs).toBe("https://github.com/argoproj/argo-rollouts/issues/3918");
    expect(explanation?.fix).toMatch(/^Upgrade Argo Rollouts/);
  });

  it("explains exec format error as an architecture mismatch", () => {
    expect(explainPluginError(`${START} fork/exec x: exec format error`)?.cause).toContain("architecture");
  });
});

describe("classifyPluginRpcMethod", () => {
  it.each(CASES)("%s → %s / %s", (message, _code, method) => {
    expect(classifyPluginRpcMethod(message)).toBe(method);
  });

  it("uses the outermost wrapper when several appear", () => {
    expect(classifyPluginRpcMethod("failed to update hash via plugin: failed to set weight via plugin: x")).toBe("UpdateHash");
  });

  it("returns Unknown for unrelated messages", () => {
    expect(classifyPluginRpcMethod("Traffic weight updated from 10 to 30")).toBe("Unknown");
  });
});
