import "server-only";
import type { Fleet } from "@/lib/fleet/fleet";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { StringPool } from "@/lib/fleet/string-pool";
import { toRolloutSummary, type RolloutSummary } from "@/lib/overview/rollout-summary";
import { attentionSeverityOf } from "@/lib/overview/attention";
import type { LiveDelta, LiveSnapshot, PreviousState } from "@/lib/contracts/stream";

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

/** One frozen PreviousState per phase and severity, shared by every kept delta that carries it. */
const PREVIOUS_STATES = new Map<string, PreviousState>();

function previousState(summary: RolloutSummary | undefined): PreviousState | null {
  if (!summary) return null;
  const attention = attentionSeverityOf(summary);
  const id = `${summary.phase}/${attention}`;
  let state = PREVIOUS_STATES.get(id);
  if (!state) PREVIOUS_STATES.set(id, (state = Object.freeze({ phase: summary.phase, attention })));
  return state;
}

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
  /** Shares the rows' small nested values (step, routers) between Rollouts. */
  private readonly pool = new StringPool();
  private rowsCache: RolloutSummary[] | null = null;
  /** Per cluster, how many Rollouts each namespace holds: what per-user counts and permission checks start from. */
  private readonly namespaceTally = new Map<string, Map<string, number>>();

  constructor(
    private readonly fleet: Fleet,
    private readonly capacity = DEFAULT_CAPACITY,
  ) {
    for (const rollout of fleet.rollouts()) this.keep(this.summarize(rollout));
    fleet.subscribe((delta) => {
      let live: LiveDelta;
      if (delta.type === "upsert") {
        const rollout = this.summarize(delta.rollout);
        const was = previousState(this.summaries.get(rollout.key));
        this.keep(rollout);
        this.rowsCache = null;
        live = { type: "upsert", rollout, was };
      } else if (delta.type === "delete") {
        const was = previousState(this.summaries.get(delta.key));
        this.drop(delta.key);
        this.rowsCache = null;
        live = { type: "delete", key: delta.key, was };
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

  private summarize(rollout: FleetRollout): RolloutSummary {
    return this.pool.internAll(toRolloutSummary(rollout), this.summaries.get(rollout.key));
  }

  private keep(rollout: RolloutSummary): void {
    if (!this.summaries.has(rollout.key)) this.tally(rollout.cluster, rollout.namespace, 1);
    this.summaries.set(rollout.key, rollout);
  }

  private drop(key: string): void {
    const rollout = this.summaries.get(key);
    if (!rollout) return;
    this.summaries.delete(key);
    this.tally(rollout.cluster, rollout.namespace, -1);
  }

  private tally(cluster: string, namespace: string, by: number): void {
    let namespaces = this.namespaceTally.get(cluster);
    if (!namespaces) this.namespaceTally.set(cluster, (namespaces = new Map()));
    const count = (namespaces.get(namespace) ?? 0) + by;
    if (count > 0) namespaces.set(namespace, count);
    else namespaces.delete(namespace);
  }

  /** How many Rollouts each namespace of the cluster holds now (namespaces without Rollouts are absent). */
  namespaceCounts(cluster: string): ReadonlyMap<string, number> {
    return this.namespaceTally.get(cluster) ?? new Map();
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
