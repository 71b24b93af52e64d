import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { buildFleetRollout, type ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { kubeRequest } from "@/lib/k8s/kube-request";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { parseRollout, type RolloutResource } from "@/lib/rollouts/schema";

/** The 404 for a Rollout the cluster's watch does not show. */
export function rolloutNotFound({ cluster, namespace, name }: RolloutRef): ApiError {
  return new ApiError("not_found", `Rollout ${namespace}/${name} not found in cluster ${cluster}`);
}

/** The watched Rollout as the overview shows it, or a 404. */
export function watchedRolloutOrThrow(watcher: ClusterWatcher, namespace: string, name: string): FleetRollout {
  const view = watcher.rollout(namespace, name);
  if (!view) throw rolloutNotFound({ cluster: watcher.name, namespace, name });
  return view;
}

/** The API path of a namespace's Rollouts. */
function rolloutsPath(namespace: string): string {
  return `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/rollouts`;
}

export function rolloutPath(namespace: string, name: string): string {
  return `${rolloutsPath(namespace)}/${encodeURIComponent(name)}`;
}

/**
 * One read of a Rollout from the API server, as the watch reads it (the dashboard's identity and a list by name, the
 * verb the watch already has; the watch keeps only a projection): the object as the API server sent it and the parsed
 * custom resource. A 404 when the watch does not show the Rollout or the cluster no longer has it.
 */
export async function fetchRawRolloutOrThrow(
  watcher: ClusterWatcher,
  namespace: string,
  name: string,
): Promise<{ object: unknown; raw: RolloutResource }> {
  watchedRolloutOrThrow(watcher, namespace, name);
  const list = await kubeRequest<{ items?: unknown[] }>(watcher.clients.kubeConfig, rolloutsPath(namespace), {
    query: { fieldSelector: `metadata.name=${name}` },
  });
  const object = list.items?.[0];
  const parsed = parseRollout(object);
  if (!parsed.ok) throw rolloutNotFound({ cluster: watcher.name, namespace, name });
  return { object, raw: parsed.rollout };
}

/**
 * The read of fetchRawRolloutOrThrow with the Rollout's view built from that same object by the function the watcher
 * builds its views with (`view`), so the phase an action is allowed by, the state it plans from and the version it is
 * checked against cannot disagree (the view lacks the watch's time- and Event-based attention reasons, which no action
 * reads).
 */
export async function fetchRolloutOrThrow(
  watcher: ClusterWatcher,
  namespace: string,
  name: string,
  now: Date,
): Promise<{ view: FleetRollout; raw: RolloutResource }> {
  const { object, raw } = await fetchRawRolloutOrThrow(watcher, namespace, name);
  return { view: buildFleetRollout(watcher.name, object, now), raw };
}
