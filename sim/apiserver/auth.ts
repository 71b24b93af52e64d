import type { IncomingMessage } from "node:http";
import type { SimUser } from "./types";
import { type Authorizer, forbidden, type ResourceAttributes, type UserInfo } from "./rbac";
import { ApiError, badRequest } from "./status";

const AUTHENTICATED = "system:authenticated";
const SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:";

export function unauthorized(): ApiError {
  return new ApiError(401, "Unauthorized", "Unauthorized");
}

function withGroup(groups: string[], group: string): string[] {
  return groups.includes(group) ? groups : [...groups, group];
}

export class Authenticator {
  private readonly byToken: Map<string, SimUser>;

  constructor(users: SimUser[]) {
    this.byToken = new Map(users.map((u) => [u.token, u]));
  }

  /** "none" when the request carries no credentials (the caller decides whether anonymous access is allowed). */
  authenticate(req: IncomingMessage): UserInfo | "none" {
    const header = req.headers.authorization;
    if (!header) return "none";
    const match = /^bearer\s+(\S+)\s*$/i.exec(header);
    const user = match ? this.byToken.get(match[1]) : undefined;
    if (!user) throw unauthorized();
    return { name: user.name, groups: withGroup(user.groups, AUTHENTICATED) };
  }
}

function impersonationTarget(username: string): ResourceAttributes {
  if (username.startsWith(SERVICE_ACCOUNT_PREFIX)) {
    const [namespace, name] = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":");
    return { verb: "impersonate", group: "", resource: "serviceaccounts", subresource: "", namespace: namespace ?? "", name: name ?? "" };
  }
  return { verb: "impersonate", group: "", resource: "users", subresource: "", namespace: "", name: username };
}

/**
 * The impersonation filter: `Impersonate-User` / `Impersonate-Group` are honoured only when the authenticated user
 * may `impersonate` that user (or service account) and every group; the request then runs as the impersonated
 * user with the requested groups (a service account without requested groups: its own) plus system:authenticated.
 */
export function impersonate(req: IncomingMessage, requestor: UserInfo, authorizer: Authorizer): UserInfo {
  const username = req.headersDistinct["impersonate-user"]?.[0];
  const groups = req.headersDistinct["impersonate-group"] ?? [];
  if (username === undefined) {
    if (groups.length > 0) throw badRequest(`requested impersonation of groups [${groups.join(" ")}] without impersonating a user`);
    return requestor;
  }
  const checks = [
    impersonationTarget(username),
    ...groups.map((g): ResourceAttributes => ({
      verb: "impersonate",
      group: "",
      resource: "groups",
      subresource: "",
      namespace: "",
      name: g,
    })),
  ];
  for (const attrs of checks) {
    const decision = authorizer.authorize(requestor, attrs);
    if (!decision.allowed) throw forbidden(requestor, attrs, decision.reason);
  }
  let impersonatedGroups = [...groups];
  // As kube-apiserver's impersonation filter: a service account's fixed groups only when no group was requested.
  if (username.startsWith(SERVICE_ACCOUNT_PREFIX) && groups.length === 0) {
    const namespace = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(":")[0];
    impersonatedGroups = withGroup(withGroup(impersonatedGroups, "system:serviceaccounts"), `system:serviceaccounts:${namespace}`);
  }
  return { name: username, groups: withGroup(impersonatedGroups, AUTHENTICATED) };
}
