/** Groups the API server lets do anything: never impersonated, whatever a user's identity provider claims. */
const ALWAYS_PRIVILEGED_GROUPS: readonly string[] = ["system:masters"];

/**
 * The groups of a user that may be sent as `Impersonate-Group` (and asked about in a SubjectAccessReview): all but
 * system:masters and the configured authorization.privilegedGroups. A group name comes from the identity provider
 * or the auth proxy, so whoever controls those must not be able to claim cluster-admin through Rollscope.
 */
export function impersonableGroups(groups: readonly string[], privilegedGroups: readonly string[] = []): string[] {
  const refused = new Set([...ALWAYS_PRIVILEGED_GROUPS, ...privilegedGroups]);
  return groups.filter((group) => !refused.has(group));
}
