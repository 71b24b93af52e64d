import type { AuthorizationConfig } from "@/lib/config/schema";
import type { ClusterReadScope } from "./read-scope";

export type MappedRole = "viewer" | "operator";

/**
 * The strongest role any of the user's groups has for this cluster and namespace (`"*"` matches all);
 * null when no mapping applies.
 */
export function resolveMappedRole(
  groups: readonly string[],
  cluster: string,
  namespace: string,
  mappings: AuthorizationConfig["roleMappings"],
): MappedRole | null {
  let role: MappedRole | null = null;
  for (const mapping of mappings) {
    if (!groups.includes(mapping.group)) continue;
    if (!mapping.clusters.includes("*") && !mapping.clusters.includes(cluster)) continue;
    if (!mapping.namespaces.includes("*") && !mapping.namespaces.includes(namespace)) continue;
    if (mapping.role === "operator") return "operator";
    role = "viewer";
  }
  return role;
}

/** Whether actions on this cluster are sent as the user (impersonation) or as the dashboard under role mappings. */
export function usesImpersonation(authorization: AuthorizationConfig, cluster: string): boolean {
  return authorization.clusters[cluster]?.impersonate ?? authorization.impersonate;
}

/** What a user may read on a cluster without impersonation: the namespaces where any of their groups has a role. */
export function mappedReadScope(
  groups: readonly string[],
  cluster: string,
  mappings: AuthorizationConfig["roleMappings"],
): ClusterReadScope {
  const namespaces = new Set<string>();
  for (const mapping of mappings) {
    if (!groups.includes(mapping.group)) continue;
    if (!mapping.clusters.includes("*") && !mapping.clusters.includes(cluster)) continue;
    if (mapping.namespaces.includes("*")) return { kind: "all" };
    for (const namespace of mapping.namespaces) namespaces.add(namespace);
  }
  return namespaces.size > 0 ? { kind: "namespaces", namespaces } : { kind: "none", error: null };
}
