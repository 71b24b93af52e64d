import type { CanaryStep } from "../controller/types";
import type { KubeObject } from "../store/object-store";
import { analysisTemplates, namespaceObject, rollout, servicesFor } from "./builders";
import { pluginConfigMap, trafficPlugin } from "./plugin-catalog";
import { rateDriver } from "./revision-driver";
import type { ScaleOptions, Scenario } from "./types";

const NAMESPACES = ["shop", "payments", "search", "platform"];
const STEPS: CanaryStep[] = [
  { setWeight: 20 },
  { pause: { duration: "15s" } },
  { setWeight: 50 },
  { pause: { duration: "15s" } },
  { setWeight: 80 },
  { pause: { duration: "15s" } },
];
/** TrafficWeightUpdated per revision with STEPS: 0→20→50→80→100, then 100→0 once stable moves. */
const WEIGHT_CHANGES_PER_REVISION = 5;

const DEFAULT_SCALE_OPTIONS: ScaleOptions = { clusters: 20, rolloutsPerCluster: 250, changesPerSecond: 50, seed: 1 };

const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/** The fieldsV1 set of a value, as the API server records which fields a manager owns (lists as one entry). */
function fieldsOf(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [`f:${key}`, fieldsOf(v)]));
}

/**
 * The Rollout as a real cluster keeps it after `kubectl apply` and the controller's first status write: the applied
 * manifest again in the last-applied annotation, and managedFields naming the fields each writer owns.
 */
function withBookkeeping(obj: KubeObject): KubeObject {
  const { name, namespace, labels, annotations } = obj.metadata;
  const applied = JSON.stringify({
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: { annotations, labels, name, namespace },
    spec: obj.spec,
  });
  const at = "2026-01-01T00:00:00Z";
  const managedFields = [
    {
      manager: "kubectl-client-side-apply",
      operation: "Update",
      apiVersion: obj.apiVersion,
      time: at,
      fieldsType: "FieldsV1",
      fieldsV1: { "f:metadata": fieldsOf({ annotations: { [LAST_APPLIED]: "" }, labels }), "f:spec": fieldsOf(obj.spec) },
    },
    {
      manager: "rollouts-controller",
      operation: "Update",
      apiVersion: obj.apiVersion,
      time: at,
      fieldsType: "FieldsV1",
      subresource: "status",
      fieldsV1: {
        "f:status": fieldsOf({
          HPAReplicas: 0,
          availableReplicas: 0,
          blueGreen: {},
          canary: { weights: { canary: {}, stable: {} } },
          conditions: {},
          currentPodHash: "",
          currentStepHash: "",
          currentStepIndex: 0,
          observedGeneration: "",
          phase: "",
          readyReplicas: 0,
          replicas: 0,
          selector: "",
          stableRS: "",
          updatedReplicas: 0,
        }),
      },
    },
  ];
  return { ...obj, metadata: { ...obj.metadata, annotations: { ...annotations, [LAST_APPLIED]: applied }, managedFields } };
}

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
      objects.push(...servicesFor(bp), options.bookkeeping ? withBookkeeping(rollout(bp)) : rollout(bp));
    }
    return { name, labels: { env: c % 4 === 0 ? "staging" : "production" }, objects };
  });
  return { name: "scale", clusters, driver: rateDriver(options.changesPerSecond, WEIGHT_CHANGES_PER_REVISION) };
}
