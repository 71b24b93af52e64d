import type { AuthorizationConfig } from "@/lib/config/schema";
import type { AuthUser } from "./types";

/**
 * Whether the user may read and export the audit log, which names every actor's groups and client address: in
 * mode none whoever reaches Rollscope (the kubeconfig identity acts for everyone); signed in, only the users and
 * groups listed in `authorization.auditReaders`.
 */
export function mayReadAuditLog(authorization: AuthorizationConfig, user: AuthUser): boolean {
  if (user.via === "none") return true;
  const { users, groups } = authorization.auditReaders;
  return users.includes(user.name) || user.groups.some((group) => groups.includes(group));
}
