import "server-only";
import type { KubernetesObject } from "@kubernetes/client-node";
import type { RollscopeConfig } from "@/lib/config/schema";
import { ApiError } from "@/lib/errors/api-error";
import { ClusterWatcher, type WatchedKind } from "./cluster-watcher";
import type { ClusterStateView, FleetDelta, FleetRollout } from "./types";

export type FleetListener = (delta: FleetDelta) => void;
export type RawListener = (cluster: string, kind: WatchedKind, type: "upsert" | "delete", obj: KubernetesObject) => void;

/** Every configured cluster's watcher, and the fan-out of their changes to the live stream and the recorder. */
export class Fleet {
  readonly clusters: ClusterWatcher[];
  private readonly listeners = new Set<FleetListener>();
  private readonly rawListeners = new Set<RawListener>();

  constructor(readonly config: RollscopeConfig) {
    this.clusters = config.clusters.map(
      (cluster) =>
        new ClusterWatcher(
          cluster,
          (delta) => {
            for (const listener of this.listeners) listener(delta);
          },
          (kind, type, obj) => {
            for (const listener of this.rawListeners) listener(cluster.name, kind, type, obj);
          },
          config.attention,
        ),
    );
    for (const cluster of this.clusters) cluster.start();
  }

  subscribe(listener: FleetListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  subscribeRaw(listener: RawListener): () => void {
    this.rawListeners.add(listener);
    return () => this.rawListeners.delete(listener);
  }

  rollouts(): FleetRollout[] {
    return this.clusters.flatMap((c) => c.rollouts());
  }

  clusterStates(): ClusterStateView[] {
    return this.clusters.map((c) => c.state());
  }

  cluster(name: string): ClusterWatcher | undefined {
    return this.clusters.find((c) => c.name === name);
  }

  /** The named cluster's watcher; a 404 `ApiError` naming it when no such cluster is configured. */
  clusterOrThrow(name: string): ClusterWatcher {
    const watcher = this.cluster(name);
    if (!watcher) throw new ApiError("not_found", `no cluster named "${name}" is configured`);
    return watcher;
  }

  async stop(): Promise<void> {
    await Promise.all(this.clusters.map((c) => c.stop()));
  }
}
