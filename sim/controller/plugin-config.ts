import { parse as parseYaml } from "yaml";
import type { KubeObject } from "../store/object-store";

export const PLUGIN_CONFIG_MAP = "argo-rollouts-config";
export const DEFAULT_CONTROLLER_NAMESPACE = "argo-rollouts";
/** `utils/config/config.go`: GitHub user and repo limits. */
const PLUGIN_NAME_PATTERN = /^([a-zA-Z0-9\-]+)\/{1}([a-zA-Z0-9_\-.]+)$/;

export interface PluginItem {
  name: string;
  location: string;
  sha256?: string;
  args?: string[];
  disabled?: boolean;
}

export interface PluginConfig {
  trafficRouterPlugins: PluginItem[];
  metricProviderPlugins: PluginItem[];
  stepPlugins: PluginItem[];
  /** resourceVersion of the ConfigMap that was read; absent when the ConfigMap does not exist. */
  resourceVersion?: string;
}

export type PluginConfigResult = { ok: true; config: PluginConfig } | { ok: false; fatal: string };

const KEYS = [
  ["trafficRouterPlugins", "traffic router plugins"],
  ["metricProviderPlugins", "metric provider plugins"],
  ["stepPlugins", "step plugins"],
] as const;

function goTypeOf(value: unknown): string {
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "array";
  return "object";
}

/** Unmarshals one data key the way ghodss/yaml + encoding/json would into []types.PluginItem. */
function parseList(text: string | undefined, label: string): PluginItem[] | string {
  if (text === undefined || text.trim() === "") return [];
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    const msg = err instanceof Error ? err.message.split("\n")[0] : String(err);
    return `failed to unmarshal ${label} while initializing: error converting YAML to JSON: yaml: ${msg}`;
  }
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) {
    return `failed to unmarshal ${label} while initializing: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOf(value)} into Go value of type []types.PluginItem`;
  }
  const items: PluginItem[] = [];
  for (const entry of value) {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      return `failed to unmarshal ${label} while initializing: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goTypeOf(entry)} into Go value of type types.PluginItem`;
    }
    const record = entry as Record<string, unknown>;
    items.push({
      name: typeof record.name === "string" ? record.name : "",
      location: typeof record.location === "string" ? record.location : "",
      ...(typeof record.sha256 === "string" ? { sha256: record.sha256 } : {}),
      ...(Array.isArray(record.args) ? { args: record.args.map(String) } : {}),
      ...(typeof record.disabled === "boolean" ? { disabled: record.disabled } : {}),
    });
  }
  return items;
}

/** `DownloadPlugins`' location handling, minus the network: only http(s) and file schemes are accepted. */
function validateLocation(item: PluginItem): string | null {
  let url: URL;
  try {
    url = new URL(item.location);
  } catch {
    return `failed to parse plugin location: parse "${item.location}": invalid URI for request`;
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (scheme !== "http" && scheme !== "https" && scheme !== "file") return "plugin location must be of http(s) or file scheme";
  return null;
}

/**
 * What the controller does with argo-rollouts-config at start-up (`utils/config/config.go` InitializeConfig, then
 * `DownloadPlugins`): a missing ConfigMap is an empty config; a parse, validation or location error is fatal
 * (`log.Fatalf`), so the controller crash-loops. The returned `fatal` is the log line it dies with.
 */
export function readPluginConfig(configMap: KubeObject | undefined): PluginConfigResult {
  if (!configMap) return { ok: true, config: { trafficRouterPlugins: [], metricProviderPlugins: [], stepPlugins: [] } };
  const data = (configMap.data ?? {}) as Record<string, string>;
  const lists: PluginItem[][] = [];
  for (const [key, label] of KEYS) {
    const parsed = parseList(data[key], label);
    if (typeof parsed === "string") return { ok: false, fatal: `Failed to init config: ${parsed}` };
    lists.push(parsed);
  }
  const [trafficRouterPlugins, metricProviderPlugins, stepPlugins] = lists;
  for (const item of [...trafficRouterPlugins, ...metricProviderPlugins, ...stepPlugins]) {
    if (!PLUGIN_NAME_PATTERN.test(item.name)) {
      return {
        ok: false,
        fatal: `Failed to init config: validation of config due to (plugin repository (${item.name}) must be in the format of <namespace>/<name>)`,
      };
    }
  }
  for (const item of trafficRouterPlugins.concat(metricProviderPlugins)) {
    if (item.disabled) {
      return {
        ok: false,
        fatal: `Failed to init config: validation of config due to (plugin ${item.name} is disabled, disabling is only supported for step plugins)`,
      };
    }
  }
  for (const item of [...trafficRouterPlugins, ...metricProviderPlugins, ...stepPlugins]) {
    const error = validateLocation(item);
    if (error) return { ok: false, fatal: `Failed to download plugins: ${error}` };
  }
  return {
    ok: true,
    config: { trafficRouterPlugins, metricProviderPlugins, stepPlugins, resourceVersion: configMap.metadata.resourceVersion },
  };
}
