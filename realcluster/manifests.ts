import { stringify } from "yaml";
import type { SimUser } from "../sim/apiserver";
import { simulationRbac, type SimulationUsers } from "../sim/cluster";

/** Kubernetes objects the real cluster starts with: namespaces, identities, the fake node. */

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [k: string]: unknown };
  [k: string]: unknown;
};

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

/** The proxy's identity on the API server (a static token of its own, bound to TRAEFIK_CLUSTER_ROLE). */
const TRAEFIK_USER = "rollscope:traefik";

/**
 * The static-token file: `token,user,uid,"group,group"` (system:authenticated is added by the apiserver), the
 * simulator's users and, when given, the proxy's token.
 */
export function tokenFile(users: SimulationUsers, traefikToken?: string): string {
  const lines = (Object.values(users) as SimUser[]).map((u) => {
    const groups = u.groups.filter((g) => g !== "system:authenticated");
    return `${u.token},${u.name},${u.name},"${groups.join(",")}"`;
  });
  if (traefikToken) lines.push(`${traefikToken},${TRAEFIK_USER},${TRAEFIK_USER},""`);
  return lines.join("\n");
}

const RBAC = "rbac.authorization.k8s.io";

/**
 * The simulator's RBAC bindings as ClusterRoles of the same names and rules: bound cluster-wide, or, for rules limited
 * to namespaces, by a RoleBinding in each of those namespaces (which are created too).
 */
function rbacObjects(users: SimulationUsers): K8sObject[] {
  return simulationRbac(users).flatMap((binding, i) => {
    const name = `rollscope:${binding.name ?? `binding-${i}`}`;
    const subjects = binding.subjects.map((s) => ({ apiGroup: RBAC, kind: s.kind, name: s.name }));
    const clusterWide = binding.rules.filter((r) => !r.namespaces).map((r) => ({ ...r }));
    const byNamespace = new Map<string, object[]>();
    for (const { namespaces, ...rule } of binding.rules.filter((r) => r.namespaces)) {
      for (const ns of namespaces ?? []) byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), rule]);
    }
    const objects: K8sObject[] = [];
    if (clusterWide.length > 0) {
      objects.push(
        { apiVersion: `${RBAC}/v1`, kind: "ClusterRole", metadata: { name }, rules: clusterWide },
        {
          apiVersion: `${RBAC}/v1`,
          kind: "ClusterRoleBinding",
          metadata: { name },
          roleRef: { apiGroup: RBAC, kind: "ClusterRole", name },
          subjects,
        },
      );
    }
    for (const [ns, rules] of byNamespace) {
      const role = `${name}:${ns}`;
      objects.push(
        namespace(ns),
        { apiVersion: `${RBAC}/v1`, kind: "ClusterRole", metadata: { name: role }, rules },
        {
          apiVersion: `${RBAC}/v1`,
          kind: "RoleBinding",
          metadata: { name: role, namespace: ns },
          roleRef: { apiGroup: RBAC, kind: "ClusterRole", name: role },
          subjects,
        },
      );
    }
    return objects;
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

/** What Traefik's kubernetesIngressNGINX provider watches (its client.go) and the Ingress status it may write. */
function traefikRbac(): K8sObject[] {
  const name = "rollscope:traefik";
  const read = ["get", "list", "watch"];
  return [
    {
      apiVersion: `${RBAC}/v1`,
      kind: "ClusterRole",
      metadata: { name },
      rules: [
        { apiGroups: [""], resources: ["services", "secrets", "configmaps", "namespaces", "endpoints"], verbs: read },
        { apiGroups: ["discovery.k8s.io"], resources: ["endpointslices"], verbs: read },
        { apiGroups: ["networking.k8s.io"], resources: ["ingresses", "ingressclasses"], verbs: read },
        { apiGroups: ["networking.k8s.io"], resources: ["ingresses/status"], verbs: ["update"] },
      ],
    },
    {
      apiVersion: `${RBAC}/v1`,
      kind: "ClusterRoleBinding",
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: "ClusterRole", name },
      subjects: [{ apiGroup: RBAC, kind: "User", name: TRAEFIK_USER }],
    },
  ];
}

export function bootstrapObjects(users: SimulationUsers): K8sObject[] {
  return [
    namespace(CONTROLLER_NAMESPACE),
    namespace(DEMO_NAMESPACE),
    // The dashboard's identity is named like a service account (as in the simulator); the account exists too.
    namespace("rollscope"),
    { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "rollscope", namespace: "rollscope" } },
    ...rbacObjects(users),
    ...traefikRbac(),
    FAKE_NODE,
  ];
}
