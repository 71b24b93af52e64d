import { groupVersion, RESOURCE_TYPES, type ResourceType } from "../resources";

/** The Kubernetes version the simulator answers as (kubectl 1.32 is on the machines). */
export const SERVER_VERSION = {
  major: "1",
  minor: "32",
  gitVersion: "v1.32.0-rollscope-sim",
  gitCommit: "0000000000000000000000000000000000000000",
  gitTreeState: "clean",
  buildDate: "2026-01-01T00:00:00Z",
  goVersion: "go1.23.4",
  compiler: "gc",
  platform: "linux/amd64",
};

const SUBRESOURCE_VERBS = ["get", "patch", "update"];
const PROXY_VERBS = ["create", "delete", "get", "patch", "update"];

interface Subresource {
  name: string;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

function subresourcesOf(type: ResourceType): Subresource[] {
  const subs: Subresource[] = type.subresources.map((sub) =>
    sub === "scale"
      ? { name: "scale", kind: "Scale", group: "autoscaling", version: "v1", verbs: SUBRESOURCE_VERBS }
      : { name: sub, kind: type.kind, verbs: SUBRESOURCE_VERBS },
  );
  if (type.group === "" && type.plural === "services") subs.push({ name: "proxy", kind: "ServiceProxyOptions", verbs: PROXY_VERBS });
  return subs;
}

/** Groups in a stable order, each with its single served version. */
function apiGroups(): Array<{ name: string; version: string }> {
  const seen = new Map<string, string>();
  for (const t of RESOURCE_TYPES) if (t.group && !seen.has(t.group)) seen.set(t.group, t.version);
  return [...seen].map(([name, version]) => ({ name, version }));
}

function typesOf(group: string, version: string): ResourceType[] {
  return RESOURCE_TYPES.filter((t) => t.group === group && t.version === version);
}

export function hasGroupVersion(group: string, version: string): boolean {
  return typesOf(group, version).length > 0;
}

/** `metav1.APIResourceList` for /api/v1 and /apis/{group}/{version}; subresources appear as `plural/sub`. */
export function apiResourceList(group: string, version: string): object {
  const resources: object[] = [];
  for (const t of typesOf(group, version)) {
    resources.push({
      name: t.plural,
      singularName: t.singular,
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.verbs,
      ...(t.shortNames.length > 0 ? { shortNames: t.shortNames } : {}),
      ...(t.categories.length > 0 ? { categories: t.categories } : {}),
    });
    for (const sub of subresourcesOf(t)) {
      resources.push({
        name: `${t.plural}/${sub.name}`,
        singularName: "",
        namespaced: t.namespaced,
        ...(sub.group ? { group: sub.group, version: sub.version } : {}),
        kind: sub.kind,
        verbs: sub.verbs,
      });
    }
  }
  // The legacy /api/v1 document carries no apiVersion; named groups' documents do.
  return { kind: "APIResourceList", ...(group ? { apiVersion: "v1" } : {}), groupVersion: groupVersion({ group, version }), resources };
}

export function apiVersions(serverAddress: string): object {
  return { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] };
}

function apiGroup(name: string, version: string): object {
  const gv = { groupVersion: `${name}/${version}`, version };
  return { name, versions: [gv], preferredVersion: gv };
}

export function apiGroupList(): object {
  return { kind: "APIGroupList", apiVersion: "v1", groups: apiGroups().map((g) => apiGroup(g.name, g.version)) };
}

export function apiGroupDocument(group: string): object | null {
  const found = apiGroups().find((g) => g.name === group);
  return found ? { kind: "APIGroup", apiVersion: "v1", ...apiGroup(found.name, found.version) } : null;
}

function resourceDiscovery(t: ResourceType): object {
  const subresources = subresourcesOf(t).map((sub) => ({
    subresource: sub.name,
    responseKind: { group: sub.group ?? t.group, version: sub.version ?? t.version, kind: sub.kind },
    verbs: sub.verbs,
  }));
  return {
    resource: t.plural,
    responseKind: { group: t.group, version: t.version, kind: t.kind },
    scope: t.namespaced ? "Namespaced" : "Cluster",
    singularResource: t.singular,
    verbs: t.verbs,
    ...(t.shortNames.length > 0 ? { shortNames: t.shortNames } : {}),
    ...(t.categories.length > 0 ? { categories: t.categories } : {}),
    ...(subresources.length > 0 ? { subresources } : {}),
  };
}

export function aggregatedContentType(version: "v2" | "v2beta1"): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}

/** apidiscovery.k8s.io APIGroupDiscoveryList: the core group for /api, every named group for /apis. */
export function aggregatedDiscovery(scope: "api" | "apis", version: "v2" | "v2beta1"): object {
  const groups = scope === "api" ? [{ name: "", version: "v1" }] : apiGroups();
  return {
    kind: "APIGroupDiscoveryList",
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name ? { name: g.name } : {},
      versions: [{ version: g.version, resources: typesOf(g.name, g.version).map(resourceDiscovery), freshness: "Current" }],
    })),
  };
}
