/** The field manager Argo Rollouts' controller writes as (its client's user agent). */
export const CONTROLLER_FIELD_MANAGER = "rollouts-controller";

interface ManagedFieldsEntry {
  manager?: unknown;
  time?: unknown;
}

/**
 * Who wrote an object last, from its `metadata.managedFields`: the manager of the entry with the newest `time`. The API
 * server keeps one entry per manager, operation and subresource and stamps it to the second, so within one second a
 * writer other than the controller wins: the controller reconciling right after `kubectl argo rollouts abort` must not
 * take the credit for it. Null when no entry says.
 */
export function deriveLastWriter(managedFields: unknown): string | null {
  if (!Array.isArray(managedFields)) return null;
  let best: { manager: string; at: number } | null = null;
  for (const entry of managedFields as ManagedFieldsEntry[]) {
    if (typeof entry?.manager !== "string" || entry.manager === "" || typeof entry.time !== "string") continue;
    const at = Date.parse(entry.time);
    if (Number.isNaN(at)) continue;
    const newer = !best || at > best.at || (at === best.at && best.manager === CONTROLLER_FIELD_MANAGER);
    if (newer) best = { manager: entry.manager, at };
  }
  return best?.manager ?? null;
}
