import "server-only";
import { getFleet, type Fleet } from "@/lib/fleet/fleet";
import { toRolloutSummary, type RolloutSummary } from "@/lib/fleet/summary";
import type { ClusterStateView } from "@/lib/fleet/types";

/** What the live stream carries: overview rows and cluster states, never raw objects or credentials. */
export type LiveDelta =
  | { type: "upsert"; rollout: RolloutSummary }
  | { type: "delete"; key: string }
  | { type: "cluster"; cluster: ClusterStateView };

export interface LiveSnapshot {
  rollouts: RolloutSummary[];
  clusters: ClusterStateView[];
}

export interface SequencedDelta {
  seq: number;
  delta: LiveDelta;
}

/**
 * Numbers every fleet change and keeps the most recent ones, so a client that reconnects with Last-Event-ID gets
 * exactly what it missed (or a fresh snapshot when it is too far behind).
 */
export class DeltaLog {
  private seq = 0;
  private readonly buffer: SequencedDelta[] = [];
  private readonly subscribers = new Set<(d: SequencedDelta) => void>();

  constructor(
    private readonly fleet: Fleet,
    private readonly capacity = 20_000,
  ) {
    fleet.subscribe((delta) => {
      const live: LiveDelta =
        delta.type === "upsert"
          ? { type: "upsert", rollout: toRolloutSummary(delta.rollout) }
          : delta.type === "delete"
            ? { type: "delete", key: delta.key }
            : { type: "cluster", cluster: delta.cluster };
      const entry = { seq: ++this.seq, delta: live };
      this.buffer.push(entry);
      if (this.buffer.length > this.capacity) this.buffer.splice(0, this.buffer.length - this.capacity);
      for (const subscriber of this.subscribers) subscriber(entry);
    });
  }

  get lastSeq(): number {
    return this.seq;
  }

  snapshot(): LiveSnapshot {
    return { rollouts: this.fleet.rollouts().map(toRolloutSummary), clusters: this.fleet.clusterStates() };
  }

  /** Deltas after `seq`, or null when some of them are no longer kept. */
  since(seq: number): SequencedDelta[] | null {
    if (seq > this.seq) return null;
    if (seq === this.seq) return [];
    const first = this.buffer[0];
    if (!first || first.seq > seq + 1) return null;
    return this.buffer.slice(seq + 1 - first.seq);
  }

  subscribe(fn: (d: SequencedDelta) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }
}

const globalForLive = globalThis as unknown as { rollscopeDeltaLog?: DeltaLog };

export function getDeltaLog(): DeltaLog {
  globalForLive.rollscopeDeltaLog ??= new DeltaLog(getFleet());
  return globalForLive.rollscopeDeltaLog;
}
