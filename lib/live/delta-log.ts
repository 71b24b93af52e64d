import "server-only";
import type { Fleet } from "@/lib/fleet/fleet";
import { toRolloutSummary, type RolloutSummary } from "@/lib/fleet/summary";
import type { LiveDelta, LiveSnapshot } from "./live-types";

export type { LiveDelta, LiveSnapshot } from "./live-types";

export interface SequencedDelta {
  seq: number;
  delta: LiveDelta;
}

/**
 * How many deltas are kept for clients that reconnect: about a minute at 50 changes/s. A client further behind gets
 * a snapshot, which holds only cluster states (pages are asked for again), so a resync is cheap and a long buffer
 * would only hold memory.
 */
const DEFAULT_CAPACITY = 3_000;

/**
 * Numbers every fleet change and keeps the most recent ones, so a client that reconnects with Last-Event-ID gets
 * exactly what it missed (or a fresh snapshot when it is too far behind). It also holds the current overview row of
 * every Rollout, built once per change, which `/api/rollouts` pages through.
 */
export class DeltaLog {
  private seq = 0;
  private readonly buffer: SequencedDelta[] = [];
  private readonly subscribers = new Set<(d: SequencedDelta) => void>();
  private readonly summaries = new Map<string, RolloutSummary>();
  private rowsCache: RolloutSummary[] | null = null;

  constructor(
    private readonly fleet: Fleet,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {
    for (const rollout of fleet.rollouts()) this.summaries.set(rollout.key, toRolloutSummary(rollout));
    fleet.subscribe((delta) => {
      let live: LiveDelta;
      if (delta.type === "upsert") {
        const rollout = toRolloutSummary(delta.rollout);
        this.summaries.set(rollout.key, rollout);
        this.rowsCache = null;
        live = { type: "upsert", rollout };
      } else if (delta.type === "delete") {
        this.summaries.delete(delta.key);
        this.rowsCache = null;
        live = { type: "delete", key: delta.key };
      } else {
        live = { type: "cluster", cluster: delta.cluster };
      }
      const entry = { seq: ++this.seq, delta: live };
      this.buffer.push(entry);
      // Dropping in chunks keeps the trim amortised O(1) per delta.
      if (this.buffer.length > this.capacity * 1.1) this.buffer.splice(0, this.buffer.length - this.capacity);
      for (const subscriber of this.subscribers) subscriber(entry);
    });
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** Every Rollout's overview row; the same array until something changes. */
  rows(): RolloutSummary[] {
    this.rowsCache ??= [...this.summaries.values()];
    return this.rowsCache;
  }

  snapshot(): LiveSnapshot {
    return { clusters: this.fleet.clusterStates(), seq: this.seq };
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
