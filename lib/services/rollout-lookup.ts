import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { FleetRollout } from "@/lib/fleet/types";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { parseRollout, type RolloutResource } from "@/lib/rollouts/schema";

/** The 404 for a Rollout the cluster's watch does not show. */
export function rolloutNotFound({ cluster, namespace, name }: RolloutRef): ApiError {
  return new ApiError("not_found", `Rollout ${namespace}/${name} not found in cluster ${cluster}`);
}

/** The watched Rollout as the overview shows it (`view`) and as its parsed custom resource (`raw`), or a 404. */
export function rolloutOrThrow(watcher: ClusterWatcher, namespace: string, name: string): { view: FleetRollout; raw: RolloutResource } {
  const view = watcher.rollout(namespace, name);
  const parsed = parseRollout(watcher.rawRollout(namespace, name));
  if (!view || !parsed.ok) throw rolloutNotFound({ cluster: watcher.name, namespace, name });
  return { view, raw: parsed.rollout };
}
