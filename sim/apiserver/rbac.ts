import type { RbacBinding, RbacRule } from "./types";
import { ApiError } from "./status";

export interface UserInfo {
  name: string;
  groups: string[];
}

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource: string;
  /** "" for cluster-scoped and all-namespaces requests. */
  namespace: string;
  name: string;
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

/** Members are allowed everything without consulting RBAC, as the real authorizer chain does. */
export const SUPERUSER_GROUP = "system:masters";

/** Non-resource URLs every authenticated user may GET (system:discovery, system:public-info-viewer). */
const PUBLIC_PATHS = [/^\/api(\/.*)?$/, /^\/apis(\/.*)?$/, /^\/openapi(\/.*)?$/, /^\/version\/?$/, /^\/(healthz|livez|readyz)(\/.*)?$/];

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.some((p) => p.test(path));
}

function includesOrStar(list: string[], value: string): boolean {
  return list.includes("*") || list.includes(value);
}

/** rbac/v1 ResourceMatches: "*", an exact `resource/subresource`, or `*\/subresource`. */
function resourceMatches(rule: RbacRule, attrs: ResourceAttributes): boolean {
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return rule.resources.some((r) => r === "*" || r === combined || (attrs.subresource !== "" && r === `*/${attrs.subresource}`));
}

function ruleAllows(rule: RbacRule, attrs: ResourceAttributes): boolean {
  if (!includesOrStar(rule.verbs, attrs.verb)) return false;
  if (!includesOrStar(rule.apiGroups, attrs.group)) return false;
  if (!resourceMatches(rule, attrs)) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0 && !rule.resourceNames.includes(attrs.name)) return false;
  if (rule.namespaces && !(attrs.namespace !== "" && includesOrStar(rule.namespaces, attrs.namespace))) return false;
  return true;
}

export class Authorizer {
  constructor(private readonly bindings: RbacBinding[]) {}

  authorize(user: UserInfo, attrs: ResourceAttributes): Decision {
    if (user.groups.includes(SUPERUSER_GROUP)) return { allowed: true, reason: "" };
    for (const [index, binding] of this.bindings.entries()) {
      const subject = binding.subjects.find(
        (s) => (s.kind === "User" && s.name === user.name) || (s.kind === "Group" && user.groups.includes(s.name)),
      );
      if (!subject) continue;
      if (binding.rules.some((rule) => ruleAllows(rule, attrs))) {
        return {
          allowed: true,
          reason: `RBAC: allowed by binding "${binding.name ?? `binding-${index}`}" to ${subject.kind} "${subject.name}"`,
        };
      }
    }
    // The RBAC authorizer gives no reason for a plain denial.
    return { allowed: false, reason: "" };
  }

  authorizeNonResource(user: UserInfo, verb: string, path: string): Decision {
    if (user.groups.includes(SUPERUSER_GROUP)) return { allowed: true, reason: "" };
    if (verb === "get" && isPublicPath(path))
      return { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" to Group "system:authenticated"' };
    return { allowed: false, reason: "" };
  }
}

/** `responsewriters.Forbidden` + `apierrors.NewForbidden`, word for word. */
export function forbidden(user: UserInfo, attrs: ResourceAttributes, reason = ""): ApiError {
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  const scope = attrs.namespace ? `in the namespace "${attrs.namespace}"` : "at the cluster scope";
  let detail = `User "${user.name}" cannot ${attrs.verb} resource "${resource}" in API group "${attrs.group}" ${scope}`;
  if (reason) detail += `: ${reason}`;
  const qualified = attrs.group ? `${attrs.resource}.${attrs.group}` : attrs.resource;
  const message = attrs.name ? `${qualified} "${attrs.name}" is forbidden: ${detail}` : `${qualified} is forbidden: ${detail}`;
  return new ApiError(403, "Forbidden", message, { name: attrs.name, group: attrs.group, kind: attrs.resource });
}

export function forbiddenPath(user: UserInfo, verb: string, path: string): ApiError {
  return new ApiError(403, "Forbidden", `forbidden: User "${user.name}" cannot ${verb} path "${path}"`);
}
