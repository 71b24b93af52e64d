import type { CanaryStep } from "../controller/types";
import type { KubeObject } from "../store/object-store";
import { analysisTemplates, namespaceObject, rollout, servicesFor } from "./builders";
import { pluginConfigMap, trafficPlugin } from "./plugin-catalog";
import { rateDriver } from "./revision-driver";
import type { ScaleOptions, Scenario } from "./types";

const NAMESPACES = ["shop", "payments", "search", "platform"];
const STEPS: CanaryStep[] = [{ setWeight: 20 }, { pause: { duration: "15s" } }, { setWeight: 50 }, { pause: { duration: "15s" } }, { setWeight: 80 }, { pause: { duration: "15s" } }];
/** TrafficWeightUpdated per revision with STEPS: 0→20→50→80→100, then 100→0 once stable moves. */
const WEIGHT_CHANGES_PER_REVISION = 5;

export const DEFAULT_SCALE_OPTIONS: ScaleOptions = { clusters: 20, rolloutsPerCluster: 250, changesPerSecond: 50, seed: 1 };

/** Many clusters of small gatewayAPI canaries (2 replicas) whose revisions start at a fleet-wide rate. */
export function scaleScenario(input: Partial<ScaleOptions> = {}): Scenario {
  const options = { ...DEFAULT_SCALE_OPTIONS, ...input };
  const clusters = Array.from({ length: options.clusters }, (_, c) => {
    const name = `scale-${String(c + 1).padStart(2, "0")}`;
    const objects: KubeObject[] = [
      namespaceObject("argo-rollouts"),
      pluginConfigMap("argo-rollouts", { trafficRouterPlugins: [trafficPlugin("gatewayAPI"), trafficPlugin("contour")] }),
    ];
    for (const ns of NAMESPACES) objects.push(namespaceObject(ns), ...analysisTemplates(ns));
    for (let i = 0; i < options.rolloutsPerCluster; i++) {
      const ns = NAMESPACES[i % NAMESPACES.length];
      const bp = {
        namespace: ns,
        name: `svc-${String(i).padStart(4, "0")}`,
        version: "1.0.0",
        replicas: 2,
        router: { plugin: "argoproj-labs/gatewayAPI", config: { httpRoute: `svc-${i}`, namespace: ns } },
        steps: STEPS,
      };
      objects.push(...servicesFor(bp), rollout(bp));
    }
    return { name, labels: { env: c % 4 === 0 ? "staging" : "production" }, objects };
  });
  return { name: "scale", clusters, driver: rateDriver(options.changesPerSecond, WEIGHT_CHANGES_PER_REVISION) };
}
