import { parse, stringify } from "yaml";
import type { BackendName } from "./backends";
import { ROUTER_PLUGIN } from "./backends";
import type { Kube, KubeObject } from "./kube";
import { ingress, routedCanary, service } from "./manifests";
import type { Scenario, ScenarioContext } from "./runner";
import type { RolloutJson } from "./snapshot";

/**
 * "A ConfigMap change that needs a controller restart". Upstream's controller reads argo-rollouts-config once, in
 * NewManager (controller/controller.go: InitializeConfig, then DownloadPlugins), and keeps it in memory
 * (utils/config GetConfig); it has no informer on that ConfigMap (its only ConfigMap informer is the notifications
 * one). So a traffic-router plugin registered after start-up stays "plugin … not configured in configmap"
 * (utils/plugin GetPluginInfo) until the controller restarts.
 *
 * The scenario restarts the controller, which every Rollout on the back-end notices (re-reconciles, metrics reset on
 * the real one): it runs alone, after the concurrent scenarios (conformance.test.ts).
 */

const CONTROLLER_NAMESPACE = "argo-rollouts";
const CONFIG_MAP = "argo-rollouts-config";

interface PluginEntry {
  name: string;
  location: string;
}
type ConfigMapJson = KubeObject & { data?: Record<string, string> };

/** The sample plugin's entry as the back-end registered it (its location differs per back-end). */
const setAside = new Map<BackendName, PluginEntry>();

async function editRouterPlugins(kube: Kube, edit: (plugins: PluginEntry[]) => PluginEntry[]): Promise<void> {
  const cm = await kube.get<ConfigMapJson>("v1", "ConfigMap", CONTROLLER_NAMESPACE, CONFIG_MAP);
  const plugins = (parse(cm.data?.trafficRouterPlugins ?? "") ?? []) as PluginEntry[];
  await kube.replace(CONTROLLER_NAMESPACE, { ...cm, data: { ...cm.data, trafficRouterPlugins: stringify(edit(plugins)) } });
}

/** Unregisters the sample plugin and restarts the controller, so that it runs without it. */
async function startWithoutPlugin(ctx: ScenarioContext): Promise<void> {
  await editRouterPlugins(ctx.kube, (plugins) => {
    const entry = plugins.find((p) => p.name === ROUTER_PLUGIN);
    if (!entry) throw new Error(`${ROUTER_PLUGIN} is not registered in ${CONFIG_MAP}`);
    setAside.set(ctx.backend.name, entry);
    return plugins.filter((p) => p !== entry);
  });
  await ctx.backend.restartController();
}

/** Registers the plugin again, then touches the Rollout so that the controller reconciles it after the change. */
async function registerPlugin(ctx: ScenarioContext): Promise<void> {
  const entry = setAside.get(ctx.backend.name);
  if (!entry) throw new Error("the plugin entry was not set aside");
  await editRouterPlugins(ctx.kube, (plugins) => [...plugins, entry]);
  await ctx.kube.patchRollout(ctx.ns, ctx.rollout, {
    metadata: { annotations: { "conformance.rollscope.dev/plugin-registered": "true" } },
  });
}

async function pluginRegistered(kube: Kube): Promise<boolean> {
  const cm = await kube.get<ConfigMapJson>("v1", "ConfigMap", CONTROLLER_NAMESPACE, CONFIG_MAP);
  return ((parse(cm.data?.trafficRouterPlugins ?? "") ?? []) as PluginEntry[]).some((p) => p.name === ROUTER_PLUGIN);
}

const stuckWithoutPlugin = async (ro: RolloutJson, ctx: ScenarioContext) =>
  ro.status?.phase !== "Healthy" &&
  (await ctx.kube.list("apps/v1", "ReplicaSet", ctx.ns)).length > 0 &&
  (ro.status?.conditions ?? []).some((c) => c.type === "Progressing");

const healthyAndPromoted = (ro: RolloutJson) =>
  ro.status?.phase === "Healthy" &&
  !!ro.status.currentPodHash &&
  ro.status.currentPodHash === ro.status.stableRS &&
  ro.status.availableReplicas === ro.spec.replicas;

export const configNeedsRestartScenario: Scenario = {
  name: "config-needs-restart",
  rollout: "web",
  prepare: startWithoutPlugin,
  objects: () => [
    service("web-stable", "web"),
    service("web-canary", "web"),
    ingress("web"),
    routedCanary("web", [{ setWeight: 20 }, { pause: {} }]),
  ],
  steps: [
    { name: "create while the controller runs without the plugin → reconcile errors, never Healthy", until: stuckWithoutPlugin },
    {
      name: "register the plugin in argo-rollouts-config → still not Healthy (plugins load at start-up only)",
      act: registerPlugin,
      until: async (ro, ctx) => (await pluginRegistered(ctx.kube)) && (await stuckWithoutPlugin(ro, ctx)),
    },
    { name: "restart the controller → plugin loaded, Healthy at v1", act: (c) => c.backend.restartController(), until: healthyAndPromoted },
  ],
};
