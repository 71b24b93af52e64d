import "server-only";
import type { RollscopeConfig } from "@/lib/config/schema";
import { ApiError } from "@/lib/errors/api-error";
import { ClusterWatcher } from "./cluster-watcher";
import type { KeptEvent } from "./kept-event";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import type { FleetDelta } from "./types";

export type FleetListener = (delta: FleetDelta) => void;
export type EventListener = (cluster: string, event: KeptEvent) => void;

/** Every configured cluster's watcher, and the fan-out of their changes to the live stream and the recorder. */
export class Fleet {
  readonly clusters: ClusterWatcher[];
  private readonly listeners = new Set<FleetListener>();
  private readonly eventListeners = new Set<EventListener>();

  constructor(readonly config: RollscopeConfig) {
    this.clusters = config.clusters.map(
      (cluster) =>
        new ClusterWatcher(
          cluster,
          (delta) => {
            for (const listener of this.listeners) listener(delta);
          },
          (event) => {
            for (const listener of this.eventListeners) listener(cluster.name, event);
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

  /** Each Event about a Rollout the watches add or change, as the clusters keep it. */
  subscribeEvents(listener: EventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
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
