import type { KubeObject, ObjectStore, StoreEvent } from "../store/object-store";
import { T } from "./resource-types";
import { asAnalysisRun, asReplicaSet, type AnalysisRun, type ReplicaSet } from "./types";

export function objectKey(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ""}/${obj.metadata.name}`;
}

function controllerOwner(obj: KubeObject, kind: string): string | null {
  const ref = obj.metadata.ownerReferences?.find((r) => r.kind === kind && r.controller);
  return ref ? `${obj.metadata.namespace ?? ""}/${ref.name}` : null;
}

type Index<T> = Map<string, Map<string, T>>;

function put<T>(index: Index<T>, owner: string, name: string, value: T | null): void {
  let bucket = index.get(owner);
  if (!value) {
    bucket?.delete(name);
    if (bucket && bucket.size === 0) index.delete(owner);
    return;
  }
  if (!bucket) index.set(owner, (bucket = new Map()));
  bucket.set(name, value);
}

export interface CacheChange {
  /** The rollout that should be reconciled because of this change. */
  rollout?: string;
  /** A ReplicaSet whose pods/status the workload simulator should look at. */
  replicaSet?: string;
  analysisRun?: string;
  experiment?: string;
  deletedRollout?: KubeObject;
}

/** The controller's informers: owned objects indexed by their controlling owner, fed by store.subscribe. */
export class ClusterCache {
  readonly replicaSets: Index<ReplicaSet> = new Map();
  readonly pods: Index<KubeObject> = new Map();
  readonly analysisRuns: Index<AnalysisRun> = new Map();
  readonly experiments: Index<KubeObject> = new Map();

  load(store: ObjectStore): void {
    for (const rs of store.list(T.replicaSets).items)
      this.apply({ type: "ADDED", resource: T.replicaSets, object: rs, resourceVersion: 0 });
    for (const pod of store.list(T.pods).items) this.apply({ type: "ADDED", resource: T.pods, object: pod, resourceVersion: 0 });
    for (const ar of store.list(T.analysisRuns).items)
      this.apply({ type: "ADDED", resource: T.analysisRuns, object: ar, resourceVersion: 0 });
    for (const ex of store.list(T.experiments).items)
      this.apply({ type: "ADDED", resource: T.experiments, object: ex, resourceVersion: 0 });
  }

  apply(event: StoreEvent): CacheChange {
    const obj = event.object;
    const deleted = event.type === "DELETED";
    switch (event.resource) {
      case T.rollouts:
        return deleted ? { deletedRollout: obj } : { rollout: objectKey(obj) };
      case T.replicaSets: {
        const owner = controllerOwner(obj, "Rollout");
        if (owner) put(this.replicaSets, owner, obj.metadata.name, deleted ? null : asReplicaSet(obj));
        return { rollout: owner ?? undefined, replicaSet: deleted ? undefined : objectKey(obj) };
      }
      case T.pods: {
        const owner = controllerOwner(obj, "ReplicaSet");
        if (!owner) return {};
        put(this.pods, owner, obj.metadata.name, deleted ? null : obj);
        return { replicaSet: owner };
      }
      case T.analysisRuns: {
        const owner = controllerOwner(obj, "Rollout");
        if (owner) put(this.analysisRuns, owner, obj.metadata.name, deleted ? null : asAnalysisRun(obj));
        return { rollout: owner ?? undefined, analysisRun: deleted ? undefined : objectKey(obj) };
      }
      case T.experiments: {
        const owner = controllerOwner(obj, "Rollout");
        if (owner) put(this.experiments, owner, obj.metadata.name, deleted ? null : obj);
        return { rollout: owner ?? undefined, experiment: deleted ? undefined : objectKey(obj) };
      }
      default:
        return {};
    }
  }

  /** Objects indexed under the Rollout's key that its object (uid) controls, as upstream's `IsControlledBy` filters. */
  private ownedBy<T extends KubeObject>(bucket: Map<string, T> | undefined, uid: string | undefined): T[] {
    const all = [...(bucket?.values() ?? [])];
    return all.filter((obj) => !uid || obj.metadata.ownerReferences?.some((r) => r.uid === uid));
  }

  replicaSetsOf(rolloutKey: string, uid: string | undefined): ReplicaSet[] {
    return this.ownedBy(this.replicaSets.get(rolloutKey), uid);
  }

  podsOf(rsKey: string): KubeObject[] {
    return [...(this.pods.get(rsKey)?.values() ?? [])];
  }

  /** A Rollout's AnalysisRuns: of the object with `uid` only (a predecessor of the same name owns its own). */
  analysisRunsOf(rolloutKey: string, uid: string | undefined): AnalysisRun[] {
    return this.ownedBy(this.analysisRuns.get(rolloutKey), uid);
  }

  experimentsOf(rolloutKey: string, uid: string | undefined): KubeObject[] {
    return this.ownedBy(this.experiments.get(rolloutKey), uid);
  }
}
