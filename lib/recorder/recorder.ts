import "server-only";
import type { RecorderStatus } from "@/lib/contracts/readiness";
import { singleProcessLeadership, type RecorderLeadership } from "@/lib/db/recorder-leadership";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import type { Fleet } from "@/lib/fleet/fleet";
import type { KeptEvent } from "@/lib/fleet/kept-event";
import { StringPool } from "@/lib/fleet/string-pool";
import { rolloutKey } from "@/lib/fleet/types";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { batchWrites, type RecorderStore } from "./batch-writes";
import { RecorderHealth } from "./recorder-health";
import { reportRecorderQueue } from "@/lib/telemetry/metrics-registry";
import { observeRecorderWrite } from "@/lib/telemetry/observe";
import { sampleSignature, toRolloutSample, type RolloutSampleInput } from "@/lib/rollouts/recorded-sample";

export interface RecorderOptions {
  retentionDays: number;
  /** Samples older than this many days are thinned to the first of each step (see compactBefore); none when unset. */
  compactAfterDays?: number;
  flushIntervalMs?: number;
  pruneIntervalMs?: number;
  /** Wait before the first retry of a failed write; doubles with each failure up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Unwritten states kept while writes fail (about 350 bytes each); beyond it the oldest are dropped, and counted. */
  maxPendingSamples?: number;
  maxPendingEvents?: number;
  /** Who may write (several replicas on one PostgreSQL); default: this process alone. */
  leadership?: RecorderLeadership;
  now?: () => number;
}

/**
 * The most samples, and the most events, one transaction writes. Each kind goes as one JSON parameter, and the
 * database driver's WebAssembly memory grows to the largest it has carried and never shrinks: a 20,000-Rollout
 * fleet's start-up wrote about 20,000 states and 60,000 events at once, and the server kept over 100 MB of it. With
 * SQLite a transaction runs on the event loop: 2,000 samples took one statement of 230 ms (a CPU profile at 5,000
 * Rollouts), 500 about a quarter of it.
 */
export const MAX_ROWS_PER_WRITE = 500;

/** How long the recorder writes a backlog before it lets the event loop turn (see writePending). */
export const WRITE_TURN_MS = 100;

/** How long a standby keeps what it observed while another replica leads (and stores it within a flush or two). */
const STANDBY_KEEP_MS = 5 * 60_000;

/** Whether `rv` is a later resourceVersion than `stored` (etcd revisions: numbers, compared as such). */
function isNewer(rv: string | null, stored: string | null): boolean {
  if (rv === null || stored === null || !/^\d+$/.test(rv) || !/^\d+$/.test(stored)) return true;
  return BigInt(rv) > BigInt(stored);
}

function eventRow(cluster: string, e: KeptEvent): RolloutEventRow {
  const now = Date.now();
  return {
    cluster,
    namespace: e.namespace,
    rollout: e.rollout,
    rolloutUid: e.rolloutUid,
    eventUid: e.uid,
    type: e.type,
    reason: e.reason,
    message: e.message,
    count: e.count,
    firstAt: new Date(e.firstAt ?? now),
    lastAt: new Date(e.lastAt ?? now),
  };
}

const eventKey = (e: RolloutEventRow) => `${e.cluster}/${e.eventUid}`;

/**
 * Stores every change of a Rollout's traffic state and every Rollout event, batched so bursts of hundreds of
 * changes per second cost one transaction of a few statements per flush. Unchanged states are not written again;
 * rows older than the retention are pruned, and older than `compactAfterDays` thinned to one sample per step. A failed write keeps its rows (up to a bound) and is retried with
 * backoff; `status()` says whether writes are failing, what is pending and what had to be dropped.
 *
 * With several replicas only the leader writes (see RecorderLeadership). A standby observes exactly as the leader
 * does and keeps what it saw for a while; when it takes over it stores, after the newest stored state of each
 * Rollout, what it observed since — so a leader's crash loses no transition — and the unique state per
 * resourceVersion skips anything the old leader did store.
 */
export class Recorder {
  /** Per Rollout key (the view's own string), its last sample's signature; many Rollouts share one. */
  private readonly lastSignature = new Map<string, string>();
  private readonly signatures = new StringPool();
  private samples: RolloutSampleInput[] = [];
  private events = new Map<string, RolloutEventRow>();
  /** When the oldest unwritten row was queued (ms), for rollscope_recorder_queue_lag_seconds; null when none waits. */
  private queuedSince: number | null = null;
  private readonly health: RecorderHealth;
  private readonly leadership: RecorderLeadership;
  private fleet: Fleet | null = null;
  private subscribed = false;
  private attached = false;
  private busy = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private unsubscribes: Array<() => void> = [];
  stored = 0;

  constructor(
    private readonly options: RecorderOptions,
    private readonly store: RecorderStore,
  ) {
    this.health = new RecorderHealth({
      now: options.now ?? Date.now,
      retryDelayMs: options.retryDelayMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 5_000,
    });
    this.leadership = options.leadership ?? singleProcessLeadership(options.now);
  }

  /**
   * Starts recording the fleet: every change from now on plus the state the watches found before (what changed
   * while Rollscope was down), after the newest stored state of each Rollout. When the database cannot be read yet,
   * it reports failing and keeps trying; on a standby replica it observes and waits for the leadership.
   */
  async start(fleet: Fleet): Promise<void> {
    this.fleet = fleet;
    reportRecorderQueue(() => ({ samples: this.samples.length, events: this.events.size, oldestQueuedAt: this.queuedSince }));
    this.subscribe(fleet);
    this.flushTimer = setInterval(() => this.tick(), this.options.flushIntervalMs ?? 250);
    this.pruneTimer = setInterval(() => this.pruneInBackground(), this.options.pruneIntervalMs ?? 3_600_000);
    if (this.leadership.isLeader()) await this.attach();
    else this.health.standby();
    this.pruneInBackground();
  }

  status(): RecorderStatus {
    return this.health.view({ samples: this.samples.length, events: this.events.size });
  }

  private tick(): void {
    this.dropBeyondBounds();
    if (!this.leadership.isLeader()) return this.standBy();
    if (this.busy || !this.health.dueForAttempt()) return;
    this.busy = true;
    void (this.attached ? this.flush() : this.attach()).finally(() => (this.busy = false));
  }

  /**
   * Not (or no longer) the leader: write nothing; forget what the leader has surely stored by now. Without a
   * connection to the database nobody may be recording: that is a failure, and everything observed is kept.
   */
  private standBy(): void {
    if (this.attached) console.warn("recorder: this replica no longer leads; it keeps observing and stops writing");
    this.attached = false;
    const { role, lastError } = this.leadership.status();
    if (role === "disconnected" && lastError !== null) {
      if (this.health.dueForAttempt()) this.health.failed(new Error(`the database is unreachable: ${lastError}`));
      return;
    }
    this.health.standby();
    if (!this.leadership.anotherLeads()) return;
    const cutoff = (this.options.now ?? Date.now)() - STANDBY_KEEP_MS;
    this.samples = this.samples.filter((s) => s.at.getTime() >= cutoff);
    for (const [key, event] of this.events) if (event.lastAt.getTime() < cutoff) this.events.delete(key);
  }

  private subscribe(fleet: Fleet): void {
    if (this.subscribed) return;
    this.subscribed = true;
    this.unsubscribes.push(
      fleet.subscribe((delta) => {
        if (delta.type === "upsert") this.observeRollout(delta.rollout);
      }),
      fleet.subscribeEvents((cluster, event) => this.observeEvent(cluster, event)),
    );
    // The watches listed before the subscription (they start with the app context): what they found is the
    // state at start-up, which differs from the newest stored one when a Rollout changed while Rollscope was down.
    for (const rollout of fleet.rollouts()) this.observeRollout(rollout);
    for (const cluster of fleet.clusters) for (const event of cluster.events()) this.observeEvent(cluster.name, event);
  }

  /** Becomes the writer: keeps of what was observed only what follows the newest stored state of each Rollout. */
  private async attach(): Promise<void> {
    if (!this.fleet || this.attached) return;
    let stored: RolloutSampleInput[];
    try {
      stored = await this.store.rolloutSamples.listLatestPerRollout();
    } catch (err) {
      this.health.failed(err);
      return;
    }
    if (!this.leadership.isLeader()) return;
    this.samples = this.afterStored(stored, [
      ...this.samples,
      ...this.fleet.rollouts().map((r) => toRolloutSample(r, new Date(r.lastChangedAt))),
    ]);
    this.attached = true;
    this.health.started();
  }

  /**
   * The observed states not yet stored, in order: later than the newest stored state of their Rollout (by
   * resourceVersion) and different from the state before them. Sets the signatures new observations compare with.
   */
  private afterStored(stored: readonly RolloutSampleInput[], observed: readonly RolloutSampleInput[]): RolloutSampleInput[] {
    const keyOf = (s: RolloutSampleInput) => rolloutKey(s.cluster, s.namespace, s.name);
    const newest = new Map(stored.map((row) => [keyOf(row), row]));
    this.lastSignature.clear();
    for (const [key, row] of newest) this.lastSignature.set(key, this.signatures.intern(sampleSignature(row)));
    const kept: RolloutSampleInput[] = [];
    for (const sample of observed) {
      const key = keyOf(sample);
      const signature = sampleSignature(sample);
      if (!isNewer(sample.resourceVersion, newest.get(key)?.resourceVersion ?? null) || this.lastSignature.get(key) === signature) continue;
      this.lastSignature.set(key, this.signatures.intern(signature));
      kept.push(sample);
    }
    return kept;
  }

  private observeRollout(rollout: FleetRollout): void {
    const sample = toRolloutSample(rollout, new Date(rollout.lastChangedAt));
    const signature = sampleSignature(sample);
    if (this.lastSignature.get(rollout.key) === signature) return;
    this.lastSignature.set(rollout.key, this.signatures.intern(signature));
    this.samples.push(sample);
    this.queuedSince ??= Date.now();
  }

  private observeEvent(cluster: string, event: KeptEvent): void {
    const row = eventRow(cluster, event);
    this.events.set(eventKey(row), row);
    this.queuedSince ??= Date.now();
  }

  /** Writes what has accumulated; calls are serialised so rows keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    const clock = this.options.now ?? Date.now;
    let turnStartedAt = clock();
    while (this.samples.length > 0 || this.events.size > 0) {
      if (!(await this.writeSome())) return;
      // A backlog (the start-up's, or what waited while the database was away) is several transactions. With SQLite
      // every await above resolves at once, so without a turn of the event loop now and then the whole backlog was
      // one task (0.6 s at 5,000 Rollouts) that every live stream, request and timer waited for. Not after every
      // transaction: on a server busy with 2,000 changes a second a turn of the loop takes up to a second, and one
      // transaction per turn stored 470 transitions a second where 1,200 arrived.
      if ((this.samples.length > 0 || this.events.size > 0) && clock() - turnStartedAt >= WRITE_TURN_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        turnStartedAt = clock();
      }
    }
  }

  /**
   * Writes the oldest {@link MAX_ROWS_PER_WRITE} samples and events waiting, in one transaction; false when it failed
   * (they wait again, ahead of what came meanwhile).
   */
  private async writeSome(): Promise<boolean> {
    const samples = this.samples.length <= MAX_ROWS_PER_WRITE ? this.samples : this.samples.slice(0, MAX_ROWS_PER_WRITE);
    const events: RolloutEventRow[] = [];
    for (const [key, event] of this.events) {
      if (events.length === MAX_ROWS_PER_WRITE) break;
      events.push(event);
      this.events.delete(key);
    }
    const queuedSince = this.queuedSince;
    this.samples = samples === this.samples ? [] : this.samples.slice(samples.length);
    if (this.samples.length === 0 && this.events.size === 0) this.queuedSince = null;
    const startedAt = performance.now();
    try {
      await this.store.transaction(batchWrites(this.store, samples, events));
      observeRecorderWrite(startedAt, true);
      this.stored += samples.length;
      this.health.written(samples.length, events.length);
      return true;
    } catch (err) {
      observeRecorderWrite(startedAt, false);
      this.queuedSince = queuedSince;
      // Keep what failed, ahead of what arrived meanwhile (a newer copy of an event wins), for the next attempt.
      this.samples = [...samples, ...this.samples];
      this.events = new Map([...events.map((e): [string, RolloutEventRow] => [eventKey(e), e]), ...this.events]);
      this.health.failed(err);
      this.dropBeyondBounds();
      return false;
    }
  }

  /**
   * Bounds memory while writes fail (or another replica writes): the oldest unwritten rows go first; the newest state
   * of each Rollout stays. While the database works nothing is dropped, however long a write takes: a 20,000-Rollout
   * fleet's start-up queues more than the bounds during its first writes, and they drain.
   */
  private dropBeyondBounds(): void {
    if (!this.health.failing() && this.leadership.isLeader()) return;
    const excessSamples = this.samples.length - (this.options.maxPendingSamples ?? 50_000);
    if (excessSamples > 0) this.samples.splice(0, excessSamples);
    const excessEvents = this.events.size - (this.options.maxPendingEvents ?? 20_000);
    if (excessEvents > 0) this.events = new Map([...this.events].slice(excessEvents));
    this.health.dropped(Math.max(0, excessSamples), Math.max(0, excessEvents));
  }

  async prune(now = new Date()): Promise<{ samples: number; events: number; compacted: number }> {
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const samples = await this.store.rolloutSamples.deleteBefore(daysAgo(this.options.retentionDays));
    const events = await this.store.rolloutEvents.deleteBefore(daysAgo(this.options.retentionDays));
    const { compactAfterDays } = this.options;
    const compacted = compactAfterDays === undefined ? 0 : await this.store.rolloutSamples.compactBefore(daysAgo(compactAfterDays));
    return { samples, events, compacted };
  }

  private pruneInBackground(): void {
    if (!this.leadership.isLeader()) return;
    this.prune().catch((err: unknown) =>
      console.warn("recorder: pruning or compacting old rows failed; will try again at the next prune", err),
    );
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribes) u();
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    if (this.attached && this.leadership.isLeader()) await this.flush();
    this.health.stopped();
  }
}
