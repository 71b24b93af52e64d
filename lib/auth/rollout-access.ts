import { ROLLOUT_ACTIONS, type RolloutAction } from "@/lib/actions/schema";
import type { ActionPermission } from "@/lib/contracts/session";
import type { AccessAttributes } from "./access-review";

/** The RBAC checks behind the rollout actions. */
export type RolloutAccess = "get" | "patch" | "patchStatus" | "update";
export const ROLLOUT_ACCESS: readonly RolloutAccess[] = ["get", "patch", "patchStatus", "update"];

/**
 * What each action needs, from the requests it sends (argo-rollouts `pkg/kubectl-argo-rollouts/cmd/*`, RBAC notes
 * in the reference): promote GETs then patches `/status` and the spec; abort/retry patch `/status` (the main
 * resource only on the NotFound fallback); pause, resume and restart patch the spec.
 */
const ACTION_ACCESS: Readonly<Record<RolloutAction, readonly RolloutAccess[]>> = {
  promote: ["get", "patchStatus", "patch"],
  "promote-full": ["get", "patchStatus", "patch"],
  abort: ["patchStatus"],
  retry: ["patchStatus"],
  pause: ["patch"],
  resume: ["patch"],
  restart: ["patch"],
  // Upstream's undo also lists ReplicaSets; that LIST is sent with the same identity, so the cluster decides it too.
  undo: ["get", "patch"],
  // `set image` GETs the Rollout and sends it back whole: an Update (PUT), RBAC verb update.
  "set-image": ["get", "update"],
};

export function rolloutAccessAttributes(access: RolloutAccess, namespace: string, name: string): AccessAttributes {
  return {
    verb: access === "get" ? "get" : access === "update" ? "update" : "patch",
    group: "argoproj.io",
    resource: "rollouts",
    subresource: access === "patchStatus" ? "status" : "",
    namespace,
    name,
  };
}

export function describeAccess(access: RolloutAccess): string {
  return access === "get"
    ? "get rollouts"
    : access === "patch"
      ? "patch rollouts"
      : access === "update"
        ? "update rollouts"
        : "patch rollouts/status";
}

export type RolloutPermissions = Readonly<Record<RolloutAction, ActionPermission>>;

/** Per action: allowed when every access it needs is; otherwise the first missing one, worded by `deny`. */
export function combineAccess(granted: ReadonlySet<RolloutAccess>, deny: (missing: RolloutAccess) => string): RolloutPermissions {
  const entries = ROLLOUT_ACTIONS.map((action): [RolloutAction, ActionPermission] => {
    const missing = ACTION_ACCESS[action].find((access) => !granted.has(access));
    return [action, missing === undefined ? { allowed: true } : { allowed: false, reason: deny(missing) }];
  });
  return Object.fromEntries(entries) as Record<RolloutAction, ActionPermission>;
}

export function uniformPermissions(permission: ActionPermission): RolloutPermissions {
  return Object.fromEntries(ROLLOUT_ACTIONS.map((action) => [action, permission])) as Record<RolloutAction, ActionPermission>;
}
