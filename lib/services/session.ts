import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import { reviewAccess, type AccessAttributes, type AccessSubject } from "@/lib/auth/access-review";
import { mayReadAuditLog } from "@/lib/auth/audit-readers";
import { cookieName, parseCookies, readCookie, serializeCookie } from "@/lib/auth/cookies";
import { CSRF_COOKIE, issueCsrfToken, isValidCsrfToken } from "@/lib/auth/csrf";
import { signOutCookies, wantsSecureCookies } from "@/lib/auth/oidc";
import { csrfBinding } from "@/lib/auth/resolve-user";
import { resolveMappedRole, usesImpersonation } from "@/lib/auth/role-mapping";
import { impersonableGroups } from "@/lib/auth/impersonation";
import { impersonatedGroups, kubernetesGroups, parseServiceAccountUser } from "@/lib/auth/service-account";
import {
  combineAccess,
  describeAccess,
  ROLLOUT_ACCESS,
  rolloutAccessAttributes,
  uniformPermissions,
  type RolloutAccess,
  type RolloutPermissions,
} from "@/lib/auth/rollout-access";
import { authSettingsOf } from "@/lib/auth/settings";
import type { AuthMode, AuthUser } from "@/lib/auth/types";
import type { AuthorizationConfig } from "@/lib/config/schema";
import { ApiError } from "@/lib/errors/api-error";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { AppContext } from "@/lib/server/app-context";
import type { RolloutPermissionsView, SessionView } from "@/lib/contracts/session";
import { watchedRolloutOrThrow } from "./rollout-lookup";

function identityNote(mode: AuthMode, user: AuthUser | null): string {
  if (mode === "none") return "No sign-in: actions run as the dashboard's kubeconfig identity";
  if (!user) return mode === "proxy" ? "Not signed in: open Rollscope through the sign-in proxy" : "Not signed in";
  return `Signed in as ${user.name}${mode === "proxy" ? " (via the sign-in proxy)" : ""}`;
}

/** The header's short form of {@link identityNote}: the app header keeps one line on a laptop screen. */
function identityLabel(mode: AuthMode, user: AuthUser | null): string {
  if (mode === "none") return "No sign-in";
  if (!user) return "Not signed in";
  return `Signed in as ${user.name}`;
}

/** The session view plus the CSRF cookie to set; an existing valid token is kept so open tabs keep working. */
export function getSessionView(
  app: AppContext,
  { request, user }: { request: Request; user: AuthUser | null },
): { view: SessionView; cookies: string[] } {
  const settings = authSettingsOf(app.config);
  const binding = csrfBinding(user);
  const secure = wantsSecureCookies(settings, request);
  const existing = readCookie(parseCookies(request.headers.get("cookie")), CSRF_COOKIE, secure);
  const reuse = existing !== undefined && isValidCsrfToken(settings.keys.csrfKey, binding, existing, existing);
  const csrfToken = reuse ? existing : issueCsrfToken(settings.keys.csrfKey, binding);
  const cookies = reuse
    ? []
    : [
        serializeCookie(cookieName(CSRF_COOKIE, secure), csrfToken, {
          secure,
          sameSite: "Strict",
          maxAge: settings.config.sessionTtlHours * 3600,
        }),
      ];
  const mode = settings.config.mode;
  return {
    view: {
      mode,
      user: user ? { name: user.name, groups: [...user.groups] } : null,
      readOnly: settings.rollscope.readOnly,
      canReadAudit: user !== null && mayReadAuditLog(app.config.authorization, user),
      signInUrl: mode === "oidc" ? "/signin" : null,
      identityNote: identityNote(mode, user),
      identityLabel: identityLabel(mode, user),
      csrfToken,
    },
    cookies,
  };
}

/**
 * Signs out: revokes the server-side session, so every copy of its cookie gets 401 and its open live streams end,
 * and returns the cookies that clear it in this browser. Without a session (modes none and proxy) only the latter.
 */
export async function signOut(app: AppContext, { request, user }: { request: Request; user: AuthUser | null }): Promise<string[]> {
  if (user?.sessionId) {
    await app.sessions.revoke(user.sessionId).catch((err: unknown) => {
      console.error("[session] could not revoke a session", err);
      throw new ApiError("upstream_unavailable", "could not end your session (the database did not answer); try again shortly");
    });
  }
  return signOutCookies(authSettingsOf(app.config), request);
}

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
  /** Set when the cluster could not be asked (unreachable, or the review failed): why. Every permission is then denied. */
  readonly unavailable?: string;
}

interface RolloutTarget extends RolloutRef {
  readonly kubeConfig: KubeConfig;
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

/** Whom the API server acts as when the dashboard sends the user's requests impersonated. */
function impersonationTarget(user: AuthUser): ImpersonationTarget {
  return { user: user.name, groups: impersonatedGroups(user.name, user.groups) };
}

/** What impersonating this user needs: `impersonate serviceaccounts` in its namespace for a service account. */
function impersonationAttributes(username: string): AccessAttributes {
  const account = parseServiceAccountUser(username);
  return account
    ? { verb: "impersonate", group: "", resource: "serviceaccounts", namespace: account.namespace, name: account.name }
    : { verb: "impersonate", group: "", resource: "users", name: username };
}

async function asImpersonatedUser(target: RolloutTarget, user: AuthUser): Promise<RolloutAuthorization> {
  const impersonate = impersonationTarget(user);
  const actingAs = `Actions run as ${user.name} (impersonated): the cluster's RBAC decides`;
  const attributes = impersonationAttributes(user.name);
  const canImpersonate = await reviewAccess(target.cluster, target.kubeConfig, { kind: "self" }, attributes);
  if (!canImpersonate.allowed) {
    const reason = `the dashboard may not impersonate ${attributes.resource} on cluster ${target.cluster} (set authorization.clusters.${target.cluster}.impersonate: false and use roleMappings)`;
    return { permissions: uniformPermissions({ allowed: false, reason }), impersonate, actingAs };
  }
  const kubeGroups = kubernetesGroups(user.name, user.groups);
  const granted = await grantedAccess(target, { kind: "user", user: user.name, groups: kubeGroups });
  const groups = kubeGroups.length > 0 ? `groups ${kubeGroups.join(", ")}` : "no groups";
  const permissions = combineAccess(
    granted,
    (missing) =>
      `Your Kubernetes permissions (${user.name}, ${groups}) do not allow ${describeAccess(missing)} in namespace ${target.namespace}`,
  );
  return { permissions, impersonate, actingAs };
}

async function asMappedRole(target: RolloutTarget, user: AuthUser, authorization: AuthorizationConfig): Promise<RolloutAuthorization> {
  const role = resolveMappedRole(kubernetesGroups(user.name, user.groups), target.cluster, target.namespace, authorization.roleMappings);
  const scope = `${target.cluster}/${target.namespace}`;
  if (role !== "operator") {
    const reason =
      role === "viewer"
        ? `Your role in ${scope} is viewer`
        : `No role mapping gives your groups (${user.groups.join(", ") || "none"}) a role in ${scope}`;
    return {
      permissions: uniformPermissions({ allowed: false, reason }),
      impersonate: null,
      actingAs: `Your role in ${scope}: ${role ?? "none"}`,
    };
  }
  return asDashboard(target, "The dashboard's identity", `Actions run as the dashboard's identity; your role in ${scope}: operator`);
}

/**
 * What this user may do to one Rollout, asked of the cluster: in mode none, what the kubeconfig identity may do
 * (SelfSubjectAccessReview); for a signed-in user on a cluster with impersonation, a SubjectAccessReview for the
 * user and the groups the API server would give it (a service account's included; actions are then sent
 * impersonated, so the API server checks again); otherwise the configured role mapping, bounded by what the
 * dashboard itself may do. A failed review denies, with the error as the reason, and sets `unavailable`.
 * Privileged groups (system:masters, authorization.privilegedGroups) are never impersonated nor reviewed.
 */
export async function authorizeRolloutActions(
  app: AppContext,
  { rollout, user }: { rollout: RolloutRef; user: AuthUser },
): Promise<RolloutAuthorization> {
  const authorization = app.config.authorization;
  const target: RolloutTarget = { ...rollout, kubeConfig: app.fleet.clusterOrThrow(rollout.cluster).clients.kubeConfig };
  const impersonable = { ...user, groups: impersonableGroups(user.groups, authorization.privilegedGroups) };
  try {
    if (user.via === "none") {
      return await asDashboard(
        target,
        "The dashboard's kubeconfig identity",
        "No sign-in: actions run as the dashboard's kubeconfig identity",
      );
    }
    if (usesImpersonation(authorization, target.cluster)) return await asImpersonatedUser(target, impersonable);
    return await asMappedRole(target, user, authorization);
  } catch (err) {
    const reason = `Could not check permissions on cluster ${target.cluster}: ${errorText(err)}`;
    const impersonate = user.via !== "none" && usesImpersonation(authorization, target.cluster) ? impersonationTarget(impersonable) : null;
    return {
      permissions: uniformPermissions({ allowed: false, reason }),
      impersonate,
      actingAs: "Permissions unknown",
      unavailable: reason,
    };
  }
}

/** The headers that make the API server act as the user (one Impersonate-Group line per group; never system:masters). */
export function impersonationHeaders(target: ImpersonationTarget | null): Record<string, string | readonly string[]> {
  if (!target) return {};
  const groups = impersonableGroups(target.groups);
  return groups.length > 0 ? { "Impersonate-User": target.user, "Impersonate-Group": groups } : { "Impersonate-User": target.user };
}

/** What the user may do to one Rollout (RBAC or role mapping only, not the Rollout's state). */
export async function getRolloutPermissions(
  app: AppContext,
  { rollout, user }: { rollout: RolloutRef; user: AuthUser },
): Promise<RolloutPermissionsView> {
  watchedRolloutOrThrow(app.fleet.clusterOrThrow(rollout.cluster), rollout.namespace, rollout.name);
  const authorization = await authorizeRolloutActions(app, { rollout, user });
  return { readOnly: app.config.readOnly, actingAs: authorization.actingAs, permissions: { ...authorization.permissions } };
}
