import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import type { AuthorizationConfig } from "@/lib/config/schema";
import { reviewAccess, type AccessSubject } from "./access-review";
import { impersonableGroups } from "./impersonation";
import { resolveMappedRole, usesImpersonation } from "./role-mapping";
import {
  combineAccess,
  describeAccess,
  ROLLOUT_ACCESS,
  rolloutAccessAttributes,
  uniformPermissions,
  type RolloutAccess,
  type RolloutPermissions,
} from "./rollout-access";
import type { AuthUser } from "./types";

export interface ImpersonationTarget {
  readonly user: string;
  readonly groups: readonly string[];
}

export interface RolloutAuthorization {
  readonly permissions: RolloutPermissions;
  /** Send the cluster requests with Impersonate-User/Group for this user; null: as the kubeconfig identity. */
  readonly impersonate: ImpersonationTarget | null;
  /** One line for the UI on whose authority actions run. */
  readonly actingAs: string;
}

export interface RolloutTarget {
  readonly cluster: string;
  readonly kubeConfig: KubeConfig;
  readonly namespace: string;
  readonly name: string;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

async function grantedAccess(target: RolloutTarget, subject: AccessSubject): Promise<Set<RolloutAccess>> {
  const decisions = await Promise.all(
    ROLLOUT_ACCESS.map(async (access) => {
      const attributes = rolloutAccessAttributes(access, target.namespace, target.name);
      const decision = await reviewAccess(target.cluster, target.kubeConfig, subject, attributes);
      return decision.allowed ? access : null;
    }),
  );
  return new Set(decisions.filter((a): a is RolloutAccess => a !== null));
}

async function asDashboard(target: RolloutTarget, who: string, actingAs: string): Promise<RolloutAuthorization> {
  const granted = await grantedAccess(target, { kind: "self" });
  const permissions = combineAccess(granted, (missing) => `${who} may not ${describeAccess(missing)} in namespace ${target.namespace}`);
  return { permissions, impersonate: null, actingAs };
}

async function asImpersonatedUser(target: RolloutTarget, user: AuthUser): Promise<RolloutAuthorization> {
  const impersonate = { user: user.name, groups: user.groups };
  const actingAs = `Actions run as ${user.name} (impersonated): the cluster's RBAC decides`;
  const canImpersonate = await reviewAccess(target.cluster, target.kubeConfig, { kind: "self" }, {
    verb: "impersonate",
    group: "",
    resource: "users",
    name: user.name,
  });
  if (!canImpersonate.allowed) {
    const reason = `the dashboard may not impersonate users on cluster ${target.cluster} (set authorization.clusters.${target.cluster}.impersonate: false and use roleMappings)`;
    return { permissions: uniformPermissions({ allowed: false, reason }), impersonate, actingAs };
  }
  const granted = await grantedAccess(target, { kind: "user", user: user.name, groups: user.groups });
  const groups = user.groups.length > 0 ? `groups ${user.groups.join(", ")}` : "no groups";
  const permissions = combineAccess(
    granted,
    (missing) => `Your Kubernetes permissions (${user.name}, ${groups}) do not allow ${describeAccess(missing)} in namespace ${target.namespace}`,
  );
  return { permissions, impersonate, actingAs };
}

async function asMappedRole(target: RolloutTarget, user: AuthUser, authorization: AuthorizationConfig): Promise<RolloutAuthorization> {
  const role = resolveMappedRole(user.groups, target.cluster, target.namespace, authorization.roleMappings);
  const scope = `${target.cluster}/${target.namespace}`;
  if (role !== "operator") {
    const reason =
      role === "viewer"
        ? `Your role in ${scope} is viewer`
        : `No role mapping gives your groups (${user.groups.join(", ") || "none"}) a role in ${scope}`;
    return { permissions: uniformPermissions({ allowed: false, reason }), impersonate: null, actingAs: `Your role in ${scope}: ${role ?? "none"}` };
  }
  return asDashboard(target, "The dashboard's identity", `Actions run as the dashboard's identity; your role in ${scope}: operator`);
}

/**
 * What this user may do to one Rollout, asked of the cluster: in mode none, what the kubeconfig identity may do
 * (SelfSubjectAccessReview); for a signed-in user on a cluster with impersonation, a SubjectAccessReview for the
 * user and groups (actions are then sent impersonated, so the API server checks again); otherwise the configured
 * role mapping, bounded by what the dashboard itself may do. A failed review denies, with the error as the reason.
 * Privileged groups (system:masters, authorization.privilegedGroups) are never impersonated nor reviewed.
 */
export async function authorizeRolloutActions(target: RolloutTarget, user: AuthUser, authorization: AuthorizationConfig): Promise<RolloutAuthorization> {
  const impersonable = { ...user, groups: impersonableGroups(user.groups, authorization.privilegedGroups) };
  try {
    if (user.via === "none") {
      return await asDashboard(target, "The dashboard's kubeconfig identity", "No sign-in: actions run as the dashboard's kubeconfig identity");
    }
    if (usesImpersonation(authorization, target.cluster)) return await asImpersonatedUser(target, impersonable);
    return await asMappedRole(target, user, authorization);
  } catch (err) {
    const reason = `Could not check permissions on cluster ${target.cluster}: ${errorText(err)}`;
    const impersonate = user.via !== "none" && usesImpersonation(authorization, target.cluster) ? { user: user.name, groups: impersonable.groups } : null;
    return { permissions: uniformPermissions({ allowed: false, reason }), impersonate, actingAs: "Permissions unknown" };
  }
}

/** The headers that make the API server act as the user (one Impersonate-Group line per group; never system:masters). */
export function impersonationHeaders(target: ImpersonationTarget | null): Record<string, string | readonly string[]> {
  if (!target) return {};
  const groups = impersonableGroups(target.groups);
  return groups.length > 0 ? { "Impersonate-User": target.user, "Impersonate-Group": groups } : { "Impersonate-User": target.user };
}
