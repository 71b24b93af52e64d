/** The field manager Argo Rollouts' controller writes as (its client's user agent). */
export const CONTROLLER_FIELD_MANAGER = "rollouts-controller";

/** The field manager Rollscope's own writes carry (`?fieldManager=`); its actions are credited through the audit log. */
export const ROLLSCOPE_FIELD_MANAGER = "rollscope";

/**
 * The controller reconciles a Rollout within moments of any write to it, and its own write then carries the newest
 * stamp: a write by someone else this long (or less) before the controller's newest one is what the controller
 * followed up on, so the change is theirs. Generous for a busy controller; short beside a canary's pauses.
 */
const CONTROLLER_FOLLOW_UP_MS = 5_000;

interface ManagedFieldsEntry {
  manager?: unknown;
  time?: unknown;
}

/**
 * Who wrote an object last, from its `metadata.managedFields`: the manager of the entry with the newest `time`, except
 * that the controller reconciling right after `kubectl argo rollouts abort` (or any other writer) does not take the
 * credit for it: a non-controller entry stamped at most {@link CONTROLLER_FOLLOW_UP_MS} before the controller's newest
 * names the writer; within one second, another writer's entry wins over Rollscope's own. The API server keeps one
 * entry per manager, operation and subresource and stamps it to the second. Null when no entry says.
 */
export function deriveLastWriter(managedFields: unknown): string | null {
  if (!Array.isArray(managedFields)) return null;
  let controllerAt = Number.NEGATIVE_INFINITY;
  let other: { manager: string; at: number } | null = null;
  for (const entry of managedFields as ManagedFieldsEntry[]) {
    if (typeof entry?.manager !== "string" || entry.manager === "" || typeof entry.time !== "string") continue;
    const at = Date.parse(entry.time);
    if (Number.isNaN(at)) continue;
    if (entry.manager === CONTROLLER_FIELD_MANAGER) controllerAt = Math.max(controllerAt, at);
    // Stamps are to the second: a write by someone else in the same second as Rollscope's is the one to name
    // (Rollscope's own actions are credited through the audit log).
    else if (!other || at > other.at || (at === other.at && other.manager === ROLLSCOPE_FIELD_MANAGER))
      other = { manager: entry.manager, at };
  }
  if (other && other.at >= controllerAt - CONTROLLER_FOLLOW_UP_MS) return other.manager;
  return controllerAt > Number.NEGATIVE_INFINITY ? CONTROLLER_FIELD_MANAGER : null;
}
