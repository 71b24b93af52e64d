/*
 * Kubernetes names a service account's user `system:serviceaccount:<namespace>:<name>` and puts it in the groups
 * `system:serviceaccounts` and `system:serviceaccounts:<namespace>` (k8s.io/apiserver serviceaccount.MakeUsername,
 * MakeGroupNames). Impersonating such a user is authorized as `impersonate serviceaccounts` in its namespace, and
 * the API server adds those groups only when no Impersonate-Group was sent (endpoints/filters/impersonation.go).
 */

const PREFIX = "system:serviceaccount:";
const NAMESPACE = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

export interface ServiceAccountRef {
  readonly namespace: string;
  readonly name: string;
}

/** The service account a username names, or null for any other user (as serviceaccount.SplitUsername decides). */
export function parseServiceAccountUser(username: string): ServiceAccountRef | null {
  if (!username.startsWith(PREFIX)) return null;
  const parts = username.slice(PREFIX.length).split(":");
  if (parts.length !== 2) return null;
  const [namespace, name] = parts;
  if (namespace.length > 63 || !NAMESPACE.test(namespace) || name.length > 253 || !NAME.test(name)) return null;
  return { namespace, name };
}

/** The groups every service account of the namespace is in. */
function serviceAccountGroups(namespace: string): string[] {
  return ["system:serviceaccounts", `system:serviceaccounts:${namespace}`];
}

/** The groups the API server sees for this user (a service account also gets its own), for reviews and role mappings. */
export function kubernetesGroups(username: string, groups: readonly string[]): string[] {
  const account = parseServiceAccountUser(username);
  return account ? [...new Set([...groups, ...serviceAccountGroups(account.namespace)])] : [...groups];
}

/**
 * The Impersonate-Group values that give the impersonated request exactly {@link kubernetesGroups}: none when the
 * user has no groups of its own (the API server then adds a service account's groups itself), otherwise all of them.
 */
export function impersonatedGroups(username: string, groups: readonly string[]): string[] {
  return groups.length === 0 ? [] : kubernetesGroups(username, groups);
}
