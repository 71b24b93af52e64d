/** The resource types the demo cluster's API server serves, with the metadata discovery needs. */
export interface ResourceType {
  group: string; // "" for the core group
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  subresources: Array<"status" | "scale">;
  verbs: string[];
  /** Whether spec changes bump metadata.generation (objects with a spec). */
  hasGeneration: boolean;
  /** Only `create` is served (review resources). */
  createOnly?: boolean;
}

const crudVerbs = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

function resource(
  group: string,
  version: string,
  kind: string,
  plural: string,
  opts: Partial<Omit<ResourceType, "group" | "version" | "kind" | "plural">> = {},
): ResourceType {
  return {
    group,
    version,
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced: true,
    shortNames: [],
    categories: [],
    subresources: [],
    verbs: crudVerbs,
    hasGeneration: false,
    ...opts,
  };
}

export const RESOURCE_TYPES: ResourceType[] = [
  resource("", "v1", "Namespace", "namespaces", { namespaced: false, shortNames: ["ns"], subresources: ["status"] }),
  resource("", "v1", "ConfigMap", "configmaps", { shortNames: ["cm"] }),
  resource("", "v1", "Secret", "secrets"),
  resource("", "v1", "Service", "services", { shortNames: ["svc"], subresources: ["status"], categories: ["all"] }),
  resource("", "v1", "Event", "events", { shortNames: ["ev"] }),
  resource("", "v1", "Pod", "pods", { shortNames: ["po"], subresources: ["status"], categories: ["all"] }),
  resource("apps", "v1", "ReplicaSet", "replicasets", {
    shortNames: ["rs"],
    subresources: ["status", "scale"],
    categories: ["all"],
    hasGeneration: true,
  }),
  resource("argoproj.io", "v1alpha1", "Rollout", "rollouts", {
    shortNames: ["ro"],
    subresources: ["status", "scale"],
    categories: ["all"],
    hasGeneration: true,
  }),
  resource("argoproj.io", "v1alpha1", "AnalysisRun", "analysisruns", {
    shortNames: ["ar"],
    subresources: ["status"],
    hasGeneration: true,
  }),
  resource("argoproj.io", "v1alpha1", "AnalysisTemplate", "analysistemplates", { shortNames: ["at"], hasGeneration: true }),
  resource("argoproj.io", "v1alpha1", "Experiment", "experiments", {
    shortNames: ["exp"],
    subresources: ["status"],
    hasGeneration: true,
  }),
  resource("networking.k8s.io", "v1", "Ingress", "ingresses", { shortNames: ["ing"], subresources: ["status"] }),
  resource("coordination.k8s.io", "v1", "Lease", "leases"),
  resource("authorization.k8s.io", "v1", "SelfSubjectAccessReview", "selfsubjectaccessreviews", {
    namespaced: false,
    verbs: ["create"],
    createOnly: true,
  }),
  resource("authorization.k8s.io", "v1", "SubjectAccessReview", "subjectaccessreviews", {
    namespaced: false,
    verbs: ["create"],
    createOnly: true,
  }),
];

export function groupVersion(type: Pick<ResourceType, "group" | "version">): string {
  return type.group ? `${type.group}/${type.version}` : type.version;
}

/** `rollouts.argoproj.io`, `configmaps` — the name Kubernetes uses in error messages and RBAC. */
export function qualifiedResourceName(type: Pick<ResourceType, "group" | "plural">): string {
  return type.group ? `${type.plural}.${type.group}` : type.plural;
}

export function findResourceType(group: string, version: string, plural: string): ResourceType | undefined {
  return RESOURCE_TYPES.find((t) => t.group === group && t.version === version && t.plural === plural);
}

export function findResourceTypeByKind(apiVersion: string, kind: string): ResourceType | undefined {
  return RESOURCE_TYPES.find((t) => groupVersion(t) === apiVersion && t.kind === kind);
}
