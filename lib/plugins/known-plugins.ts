/** A traffic-router plugin whose ConfigMap/Rollout key is fixed in its own code. */
export interface KnownPlugin {
  /** The key the plugin reads from `trafficRouting.plugins`; the ConfigMap entry must use the same name. */
  name: string;
  /** GitHub `owner/repo` that publishes the binary. */
  repo: string;
}

/**
 * Keys as hard-coded in each plugin's source (reference §6). Gloo Platform and Consul are published under
 * argoproj-labs but read `solo-io/…` and `hashicorp/…`; the Consul README's `argoproj-labs/consul` does not match.
 */
const KNOWN_TRAFFIC_ROUTER_PLUGINS: readonly KnownPlugin[] = [
  { name: "argoproj-labs/gatewayAPI", repo: "argoproj-labs/rollouts-plugin-trafficrouter-gatewayapi" },
  { name: "argoproj-labs/contour", repo: "argoproj-labs/rollouts-plugin-trafficrouter-contour" },
  { name: "argoproj-labs/openshift", repo: "argoproj-labs/rollouts-plugin-trafficrouter-openshift" },
  { name: "solo-io/glooplatform", repo: "argoproj-labs/rollouts-plugin-trafficrouter-glooplatform" },
  { name: "hashicorp/consul", repo: "argoproj-labs/rollouts-plugin-trafficrouter-consul" },
  { name: "argoproj-labs/sample-nginx", repo: "argoproj-labs/rollouts-plugin-trafficrouter-sample-nginx" },
];

function shortNameOf(pluginName: string): string {
  const slash = pluginName.indexOf("/");
  return slash === -1 ? pluginName : pluginName.slice(slash + 1);
}

/** The known plugin whose key differs from `pluginName` only by letter case or org, if any. */
export function findKnownPluginByLooseName(pluginName: string): KnownPlugin | null {
  const wanted = shortNameOf(pluginName).toLowerCase();
  return KNOWN_TRAFFIC_ROUTER_PLUGINS.find((known) => shortNameOf(known.name).toLowerCase() === wanted) ?? null;
}

/** The known plugin whose release repository the location points at (`github.com/<repo>/…`), if any. */
export function findKnownPluginByLocation(location: string): KnownPlugin | null {
  const lower = location.toLowerCase();
  return KNOWN_TRAFFIC_ROUTER_PLUGINS.find((known) => lower.includes(`github.com/${known.repo}/`)) ?? null;
}
