import { stringify } from "yaml";
import type { PluginItem } from "../controller/plugin-config";
import type { KubeObject } from "../store/object-store";
import { pluginSha256 } from "./builders";

const GH = "https://github.com/argoproj-labs";

/** Release assets as the plugins' installation docs name them (versions per reference §6). */
const TRAFFIC_ROUTER_PLUGINS = {
  gatewayAPI: {
    name: "argoproj-labs/gatewayAPI",
    location: `${GH}/rollouts-plugin-trafficrouter-gatewayapi/releases/download/v0.15.0/gatewayapi-plugin-linux-amd64`,
  },
  contour: {
    name: "argoproj-labs/contour",
    location: `${GH}/rollouts-plugin-trafficrouter-contour/releases/download/v0.5.0/contour-plugin-linux-amd64`,
  },
  openshift: {
    name: "argoproj-labs/openshift",
    location: `${GH}/rollouts-plugin-trafficrouter-openshift/releases/download/commit-8d0b3c6c5c18341f9f019cf1015b56b0d0c6085b/rollouts-plugin-trafficrouter-openshift-linux-amd64`,
  },
  glooplatform: {
    name: "solo-io/glooplatform",
    location: `${GH}/rollouts-plugin-trafficrouter-glooplatform/releases/download/v0.0.0-beta3/glooplatform-api-plugin-linux-amd64`,
  },
  consul: {
    name: "hashicorp/consul",
    location: `${GH}/rollouts-plugin-trafficrouter-consul/releases/download/v0.0.1/rollouts-plugin-trafficrouter-consul-linux-amd64`,
  },
} as const;

export type TrafficPluginKey = keyof typeof TRAFFIC_ROUTER_PLUGINS;

export interface PluginEntryOptions {
  /** Leave sha256 out (it is optional upstream). */
  noSha?: boolean;
  /** Ship the binary in the image and reference it with file://. */
  fileLocation?: string;
  args?: string[];
}

export function trafficPlugin(key: TrafficPluginKey, opts: PluginEntryOptions = {}): PluginItem {
  const base = TRAFFIC_ROUTER_PLUGINS[key];
  if (opts.fileLocation) return { name: base.name, location: opts.fileLocation, ...(opts.args ? { args: opts.args } : {}) };
  return {
    name: base.name,
    location: base.location,
    ...(opts.noSha ? {} : { sha256: pluginSha256(base.location) }),
    ...(opts.args ? { args: opts.args } : {}),
  };
}

export function pluginConfigMap(
  namespace: string,
  data: { trafficRouterPlugins: PluginItem[]; metricProviderPlugins?: PluginItem[]; stepPlugins?: PluginItem[] },
): KubeObject {
  const out: Record<string, string> = { trafficRouterPlugins: stringify(data.trafficRouterPlugins) };
  if (data.metricProviderPlugins?.length) out.metricProviderPlugins = stringify(data.metricProviderPlugins);
  if (data.stepPlugins?.length) out.stepPlugins = stringify(data.stepPlugins);
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: {
      name: "argo-rollouts-config",
      namespace,
      labels: {
        "app.kubernetes.io/component": "rollouts-controller",
        "app.kubernetes.io/name": "argo-rollouts",
        "app.kubernetes.io/part-of": "argo-rollouts",
      },
    },
    data: out,
  };
}
