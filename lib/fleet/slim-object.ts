import type { KubernetesObject } from "@kubernetes/client-node";
import type { WatchedKind } from "./cluster-watcher";

const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

/** The object without what nothing reads: managedFields and kubectl's copy of the last applied manifest. */
function withoutBookkeeping(obj: KubernetesObject): KubernetesObject {
  const { managedFields: _managed, annotations, ...metadata } = obj.metadata ?? {};
  if (annotations && LAST_APPLIED in annotations) {
    const { [LAST_APPLIED]: _applied, ...rest } = annotations;
    return { ...obj, metadata: { ...metadata, annotations: rest } };
  }
  return { ...obj, metadata: annotations ? { ...metadata, annotations } : metadata };
}

type EventLike = KubernetesObject & {
  involvedObject?: { kind?: string; name?: string; namespace?: string };
  [field: string]: unknown;
};

/** The fields of a core/v1 Event the detail page, the attention signals and the recorder read. */
function slimEvent(obj: EventLike): KubernetesObject {
  const { name, namespace, uid, resourceVersion } = obj.metadata ?? {};
  const involved = obj.involvedObject ?? {};
  const { type, reason, message, count, firstTimestamp, lastTimestamp, eventTime } = obj;
  return {
    metadata: { name, namespace, uid, resourceVersion },
    involvedObject: { kind: involved.kind, name: involved.name, namespace: involved.namespace },
    type,
    reason,
    message,
    count,
    firstTimestamp,
    lastTimestamp,
    eventTime,
  } as KubernetesObject;
}

/** What a cluster watcher keeps of a watched object other than a Rollout. */
export function slimObject(kind: Exclude<WatchedKind, "rollouts">, obj: KubernetesObject): KubernetesObject {
  return kind === "events" ? slimEvent(obj as EventLike) : withoutBookkeeping(obj);
}
