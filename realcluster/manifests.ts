import { stringify } from "yaml";
import type { SimUser } from "../sim/apiserver";
import { simulationRbac, type SimulationUsers } from "../sim/cluster";

/** Kubernetes objects the real cluster starts with: identities, the fake node, Argo Rollouts' configuration. */

export type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; [k: string]: unknown }; [k: string]: unknown };

export const CONTROLLER_NAMESPACE = "argo-rollouts";
export const DEMO_NAMESPACE = "demo";
/** Upstream's sample traffic-router plugin registers under this name (its code looks its config up by it). */
export const SAMPLE_ROUTER_PLUGIN = "argoproj/sample-nginx";
/** The Gateway API plugin: not served by the module proxy, so never registered here (see realcluster/README.md). */
export const GATEWAY_API_PLUGIN = "argoproj-labs/gatewayAPI";

export function toYaml(objects: K8sObject[]): string {
  return objects.map((o) => stringify(o)).join("---\n");
}

const namespace = (name: string): K8sObject => ({ apiVersion: "v1", kind: "Namespace", metadata: { name } });

/** The static-token file: `token,user,uid,"group,group"` (system:authenticated is added by the apiserver). */
export function tokenFile(users: SimulationUsers): string {
  return (Object.values(users) as SimUser[])
    .map((u) => {
      const groups = u.groups.filter((g) => g !== "system:authenticated");
      return `${u.token},${u.name},${u.name},"${groups.join(",")}"`;
    })
    .join("\n");
}

/** The simulator's RBAC bindings as ClusterRoles and ClusterRoleBindings of the same names and rules. */
export function rbacObjects(users: SimulationUsers): K8sObject[] {
  return simulationRbac(users).flatMap((binding, i) => {
    const name = `rollscope:${binding.name ?? `binding-${i}`}`;
    if (binding.rules.some((r) => r.namespaces)) throw new Error(`binding ${name}: namespace-limited rules have no ClusterRole equivalent`);
    return [
      { apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole", metadata: { name }, rules: binding.rules.map((r) => ({ ...r })) },
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name },
        subjects: binding.subjects.map((s) => ({ apiGroup: "rbac.authorization.k8s.io", kind: s.kind, name: s.name })),
      },
    ];
  });
}

/** A node kwok manages (annotation), with room for the demo's pods. */
export const FAKE_NODE: K8sObject = {
  apiVersion: "v1",
  kind: "Node",
  metadata: {
    name: "kwok-node-0",
    annotations: { "node.alpha.kubernetes.io/ttl": "0", "kwok.x-k8s.io/node": "fake" },
    labels: { "kubernetes.io/hostname": "kwok-node-0", "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", type: "kwok" },
  },
  status: { allocatable: { cpu: "32", memory: "256Gi", pods: "110" }, capacity: { cpu: "32", memory: "256Gi", pods: "110" } },
};

export function bootstrapObjects(users: SimulationUsers): K8sObject[] {
  return [
    namespace(CONTROLLER_NAMESPACE),
    namespace(DEMO_NAMESPACE),
    // The dashboard's identity is named like a service account (as in the simulator); the account exists too.
    namespace("rollscope"),
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "rollscope", namespace: "rollscope" } },
    ...rbacObjects(users),
    FAKE_NODE,
  ];
}

/** `argo-rollouts-config`: read once when the controller starts, so it is applied before the controller runs. */
export function rolloutsConfigMap(samplePluginPath: string): K8sObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "argo-rollouts-config", namespace: CONTROLLER_NAMESPACE },
    data: { trafficRouterPlugins: stringify([{ name: SAMPLE_ROUTER_PLUGIN, location: `file://${samplePluginPath}` }]) },
  };
}
