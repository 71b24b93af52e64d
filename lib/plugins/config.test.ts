import { describe, expect, it } from "vitest";
import { parseLocationVersion, parsePluginConfigMap, type PluginEntryError } from "@/lib/plugins/config";
import { loadConfigMapFixture } from "@/test/fixtures/configmaps/load-config-map-fixture";

const NAME_RULE = "must be <org>/<name> matching ^([a-zA-Z0-9\\-]+)\\/{1}([a-zA-Z0-9_\\-.]+)$";
const GATEWAY_V15 =
  "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi/releases/download/v0.15.0/gatewayapi-plugin-linux-amd64";

function trafficError(index: number, rest: Partial<PluginEntryError> & Pick<PluginEntryError, "reason">): PluginEntryError {
  return {
    code: "invalid-entry",
    kind: "trafficRouter",
    key: "trafficRouterPlugins",
    index,
    name: null,
    field: null,
    value: null,
    ...rest,
  };
}

describe("parsePluginConfigMap", () => {
  it("treats a missing ConfigMap as an empty config that does not crash the controller", () => {
    expect(parsePluginConfigMap(null)).toEqual({ plugins: [], entryErrors: [], crashLoops: false, configMap: null });
  });

  it("reads a ConfigMap without data as registering nothing", () => {
    expect(parsePluginConfigMap(loadConfigMapFixture("empty"))).toEqual({
      plugins: [],
      entryErrors: [],
      crashLoops: false,
      configMap: {
        name: "argo-rollouts-config",
        namespace: "argo-rollouts",
        resourceVersion: "1204",
        updatedAt: "2026-07-01T08:00:00.000Z",
      },
    });
  });

  it("lists every plugin of valid.yaml with org, version, sha256, args, secrets and position", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("valid"));
    expect(config.entryErrors).toEqual([]);
    expect(config.crashLoops).toBe(false);
    expect(config.configMap).toEqual({
      name: "argo-rollouts-config",
      namespace: "argo-rollouts",
      resourceVersion: "48213",
      updatedAt: "2026-08-18T09:12:44.000Z", // the newest managedFields entry, not creationTimestamp
    });
    expect(config.plugins).toEqual([
      {
        kind: "trafficRouter",
        name: "argoproj-labs/gatewayAPI",
        org: "argoproj-labs",
        shortName: "gatewayAPI",
        location: GATEWAY_V15,
        locationScheme: "https",
        version: "v0.15.0",
        sha256: "0964fe950b4721a91c3eaef98cfd2f3bc142e7e6533cdcc80d57410a07ccf782",
        args: ["-logformat", "json"],
        headersFromSecrets: ["plugin-dl-creds"],
        disabled: false,
        index: 0,
      },
      {
        kind: "trafficRouter",
        name: "argoproj-labs/contour",
        org: "argoproj-labs",
        shortName: "contour",
        location:
          "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-contour/releases/download/v0.5.0/rollouts-plugin-trafficrouter-contour-linux-amd64",
        locationScheme: "https",
        version: "v0.5.0",
        sha256: "2e1025a6f0aa4c8ef105d6e89a8fd408c34ef2297f182f51549e498810be3c61",
        args: [],
        headersFromSecrets: [],
        disabled: false,
        index: 1,
      },
      {
        kind: "trafficRouter",
        name: "argoproj-labs/openshift",
        org: "argoproj-labs",
        shortName: "openshift",
        location: "file:///plugins/rollouts-plugin-trafficrouter-openshift",
        locationScheme: "file",
        version: null,
        sha256: null,
        args: [],
        headersFromSecrets: [],
        disabled: false,
        index: 2,
      },
      {
        kind: "trafficRouter",
        name: "solo-io/glooplatform",
        org: "solo-io",
        shortName: "glooplatform",
        location:
          "https://github.com/argoproj-labs/rollouts-plugin-trafficrouter-glooplatform/releases/download/v0.0.0-beta3/glooplatform-plugin-linux-amd64",
        locationScheme: "https",
        version: "v0.0.0-beta3",
        sha256: "9f10d156965de49e01df279476ffdf654d9150e9709f7350c38281257bf44c6e",
        args: [],
        headersFromSecrets: [],
        disabled: false,
        index: 3,
      },
      {
        kind: "trafficRouter",
        name: "hashicorp/consul",
        org: "hashicorp",
        shortName: "consul",
        location: "file:///plugins/rollouts-plugin-trafficrouter-consul-v0.0.1",
        locationScheme: "file",
        version: "v0.0.1",
        sha256: null,
        args: [],
        headersFromSecrets: [],
        disabled: false,
        index: 4,
      },
      {
        kind: "metricProvider",
        name: "argoproj-labs/sample-prometheus",
        org: "argoproj-labs",
        shortName: "sample-prometheus",
        location: "file:///plugins/metric-plugin@v1.2.3",
        locationScheme: "file",
        version: "v1.2.3",
        sha256: null,
        args: ["-loglevel", "debug"],
        headersFromSecrets: [],
        disabled: false,
        index: 0,
      },
      {
        kind: "step",
        name: "argoproj-labs/step-exec",
        org: "argoproj-labs",
        shortName: "step-exec",
        location: "file:///plugins/step-plugin",
        locationScheme: "file",
        version: null,
        sha256: null,
        args: [],
        headersFromSecrets: [],
        disabled: false,
        index: 0,
      },
    ]);
  });

  it("reads lists given as JSON strings", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("json-format"));
    expect(config.entryErrors).toEqual([]);
    expect(config.configMap?.namespace).toBe("rollouts-system");
    expect(config.plugins.map((p) => [p.kind, p.name, p.version, p.args, p.disabled])).toEqual([
      ["trafficRouter", "argoproj-labs/gatewayAPI", "v0.15.0", ["-kubeClientQPS", "20"], false],
      ["metricProvider", "argoproj-labs/sample-prometheus", null, [], false],
      ["step", "argoproj-labs/step-exec", null, [], true],
    ]);
  });

  it("reports a key that does not parse once, with the parser's message, and keeps the other keys", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("malformed-yaml"));
    expect(config.crashLoops).toBe(true);
    expect(config.entryErrors).toEqual([
      {
        code: "invalid-yaml",
        kind: "trafficRouter",
        key: "trafficRouterPlugins",
        index: null,
        name: null,
        field: null,
        value: null,
        reason:
          "trafficRouterPlugins is not valid YAML: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3, column 30",
      },
    ]);
    expect(config.plugins.map((p) => p.name)).toEqual(["argoproj-labs/sample-prometheus"]);
  });

  it("rejects a key that is YAML but not a list", () => {
    const config = parsePluginConfigMap({ data: { stepPlugins: "name: argoproj-labs/step-exec\nlocation: file:///p" } });
    expect(config.entryErrors).toEqual([
      {
        code: "invalid-yaml",
        kind: "step",
        key: "stepPlugins",
        index: null,
        name: null,
        field: null,
        value: null,
        reason: "stepPlugins must be a list of plugin entries, got a mapping",
      },
    ]);
    expect(config.crashLoops).toBe(true);
  });

  it("names each bad plugin name with its value and the upstream rule, and keeps the valid entry", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("bad-name"));
    expect(config.crashLoops).toBe(true);
    expect(config.entryErrors).toEqual([
      trafficError(0, {
        name: "gatewayAPI",
        field: "name",
        value: '"gatewayAPI"',
        reason: `trafficRouterPlugins[0] name "gatewayAPI" ${NAME_RULE}`,
      }),
      trafficError(1, {
        name: "argoproj_labs/contour",
        field: "name",
        value: '"argoproj_labs/contour"',
        reason: `trafficRouterPlugins[1] name "argoproj_labs/contour" ${NAME_RULE}`,
      }),
      trafficError(2, {
        name: "argoproj-labs/openshift/v2",
        field: "name",
        value: '"argoproj-labs/openshift/v2"',
        reason: `trafficRouterPlugins[2] name "argoproj-labs/openshift/v2" ${NAME_RULE}`,
      }),
      trafficError(3, { field: "name", reason: "trafficRouterPlugins[3] name is required" }),
    ]);
    expect(config.plugins.map((p) => [p.name, p.index])).toEqual([["argoproj-labs/sample-nginx", 4]]);
  });

  it("accepts only http, https and file locations", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("bad-location-scheme"));
    expect(config.crashLoops).toBe(true);
    expect(config.entryErrors).toEqual([
      trafficError(0, {
        name: "argoproj-labs/gatewayAPI",
        field: "location",
        value: '"ftp://mirror.example.com/plugins/gatewayapi-plugin-linux-amd64"',
        reason:
          'trafficRouterPlugins[0] (argoproj-labs/gatewayAPI) location "ftp://mirror.example.com/plugins/gatewayapi-plugin-linux-amd64" uses unsupported scheme "ftp"; only http://, https:// and file:// are downloaded',
      }),
      trafficError(1, {
        name: "argoproj-labs/contour",
        field: "location",
        value: '"s3://acme-artifacts/argo/contour-plugin"',
        reason:
          'trafficRouterPlugins[1] (argoproj-labs/contour) location "s3://acme-artifacts/argo/contour-plugin" uses unsupported scheme "s3"; only http://, https:// and file:// are downloaded',
      }),
      trafficError(2, {
        name: "argoproj-labs/openshift",
        field: "location",
        value: '"/plugins/rollouts-plugin-trafficrouter-openshift"',
        reason:
          'trafficRouterPlugins[2] (argoproj-labs/openshift) location "/plugins/rollouts-plugin-trafficrouter-openshift" has no scheme; it must start with http://, https:// or file://',
      }),
      trafficError(3, {
        name: "solo-io/glooplatform",
        field: "location",
        reason: "trafficRouterPlugins[3] (solo-io/glooplatform) location is required",
      }),
    ]);
    expect(config.plugins.map((p) => p.name)).toEqual(["argoproj-labs/sample-prometheus"]);
  });

  it("validates sha256, args, headersFrom and disabled, and folds field names the way Go's encoding/json does", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("bad-fields"));
    expect(config.entryErrors).toEqual([
      trafficError(0, {
        name: "argoproj-labs/gatewayAPI",
        field: "sha256",
        value: '"0964FE950B4721A91C3EAEF98CFD2F3BC142E7E6533CDCC80D57410A07CCF782"',
        reason:
          'trafficRouterPlugins[0] (argoproj-labs/gatewayAPI) sha256 "0964FE950B4721A91C3EAEF98CFD2F3BC142E7E6533CDCC80D57410A07CCF782" must be lower-case hex; upstream compares it with the lower-case digest, so the download never matches',
      }),
      trafficError(1, {
        name: "argoproj-labs/contour",
        field: "sha256",
        value: '"2e1025a6f0aa"',
        reason: 'trafficRouterPlugins[1] (argoproj-labs/contour) sha256 "2e1025a6f0aa" must be 64 hex characters (got 12 characters)',
      }),
      trafficError(1, {
        name: "argoproj-labs/contour",
        field: "args",
        value: '"-loglevel debug"',
        reason: 'trafficRouterPlugins[1] (argoproj-labs/contour) args "-loglevel debug" must be a list of strings, got a string',
      }),
      trafficError(3, {
        name: "hashicorp/consul",
        field: "headersFrom[0].secretRef",
        reason: "trafficRouterPlugins[3] (hashicorp/consul) headersFrom[0].secretRef is required",
      }),
      trafficError(4, {
        value: '"argoproj-labs/sample-nginx"',
        reason: "trafficRouterPlugins[4] must be a mapping with name and location, got a string",
      }),
      {
        code: "invalid-entry",
        kind: "step",
        key: "stepPlugins",
        index: 0,
        name: "argoproj-labs/step-exec",
        field: "disabled",
        value: '"false"',
        reason: 'stepPlugins[0] (argoproj-labs/step-exec) disabled "false" must be true or false, got a string',
      },
    ]);
    // `Name:`/`Location:` match case-insensitively and YAML 1.1 reads `yes` as true, as go-yaml v2 does.
    expect(config.plugins.map((p) => [p.kind, p.name, p.location, p.disabled])).toEqual([
      ["trafficRouter", "argoproj-labs/openshift", "file:///plugins/openshift", true],
    ]);
  });

  it("lists duplicate names as separate entries for the findings to flag", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("duplicates"));
    expect(config.entryErrors).toEqual([]);
    expect(config.plugins.map((p) => [p.name, p.index, p.version])).toEqual([
      ["argoproj-labs/gatewayAPI", 0, "v0.14.0"],
      ["argoproj-labs/contour", 1, null],
      ["argoproj-labs/gatewayAPI", 2, "v0.15.0"],
      ["argoproj-labs/contour", 3, null],
    ]);
  });

  it("treats an empty sha256 as absent", () => {
    const config = parsePluginConfigMap(loadConfigMapFixture("missing-sha256"));
    expect(config.entryErrors).toEqual([]);
    expect(config.plugins.map((p) => [p.name, p.locationScheme, p.sha256 === null])).toEqual([
      ["argoproj-labs/gatewayAPI", "https", true],
      ["argoproj-labs/contour", "http", true],
      ["argoproj-labs/openshift", "file", true],
      ["argoproj-labs/sample-prometheus", "https", false],
    ]);
  });
});

describe("parseLocationVersion", () => {
  it.each([
    [GATEWAY_V15, "v0.15.0"],
    ["https://example.com/releases/download/0.3.1/plugin", "0.3.1"],
    ["https://github.com/acme/p/releases/download/plugin-v2.1.0/plugin-linux-amd64", "v2.1.0"],
    ["https://github.com/acme/p/releases/latest/download/plugin-linux-amd64", null],
    ["file:///plugins/plugin-v1.2.3", "v1.2.3"],
    ["file:///plugins/plugin@v1.2.3", "v1.2.3"],
    ["https://cdn.example.com/plugin_v1.2.3-rc1-linux-amd64", "v1.2.3-rc1"],
    ["file:///plugins/v1.2.3/plugin", null],
    ["file:///plugins/rollouts-plugin-trafficrouter-openshift", null],
  ])("%s → %s", (location, version) => {
    expect(parseLocationVersion(location)).toBe(version);
  });
});
