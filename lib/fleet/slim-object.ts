import type { KubernetesObject } from "@kubernetes/client-node";

const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/**
 * What a cluster watcher keeps of a watched object other than a Rollout or an Event (lib/fleet/kept-event.ts): the
 * object without what nothing reads, managedFields and kubectl's copy of the last applied manifest.
 */
export function slimObject(obj: KubernetesObject): KubernetesObject {
  const { managedFields: _managed, annotations, ...metadata } = obj.metadata ?? {};
  if (annotations && LAST_APPLIED in annotations) {
    const { [LAST_APPLIED]: _applied, ...rest } = annotations;
    return { ...obj, metadata: { ...metadata, annotations: rest } };
  }
  return { ...obj, metadata: annotations ? { ...metadata, annotations } : metadata };
}
