import "server-only";
import type { KubernetesObject } from "@kubernetes/client-node";
import type { RecorderStatus } from "@/lib/contracts/readiness";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import type { Fleet } from "@/lib/fleet/fleet";
import type { FleetRollout } from "@/lib/fleet/types";
import { parseKubeEvent } from "@/lib/rollouts/event-schema";
import { batchWrites, type RecorderStore } from "./batch-writes";
import { RecorderHealth } from "./recorder-health";
import { reportRecorderQueue } from "@/lib/telemetry/metrics-registry";
import { observeRecorderWrite } from "@/lib/telemetry/observe";
import { sampleSignature, toRolloutSample, type RolloutSampleInput } from "@/lib/rollouts/recorded-sample";

export interface RecorderOptions {
  retentionDays: number;
  flushIntervalMs?: number;
  pruneIntervalMs?: number;
  /** Wait before the first retry of a failed write; doubles with each failure up to `maxRetryDelayMs`. */
  retryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Unwritten states kept while writes fail (about 350 bytes each); beyond it the oldest are dropped, and counted. */
  maxPendingSamples?: number;
  maxPendingEvents?: number;
  now?: () => number;
}

function eventRow(cluster: string, obj: KubernetesObject): RolloutEventRow | null {
  const parsed = parseKubeEvent(obj);
  if (!parsed.ok) return null;
  const e = parsed.event;
  if (e.involvedObject?.kind !== "Rollout" || !e.involvedObject.name) return null;
  const last = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp;
  const first = e.firstTimestamp ?? e.eventTime ?? last;
  const uid = e.metadata?.uid ?? `${e.metadata?.namespace}/${e.metadata?.name}`;
  return {
    cluster,
    namespace: e.involvedObject.namespace ?? e.metadata?.namespace ?? "",
    rollout: e.involvedObject.name,
    eventUid: uid,
    type: e.type ?? "Normal",
    reason: e.reason ?? "",
    message: e.message ?? "",
    count: e.count ?? 1,
    firstAt: new Date(first ?? Date.now()),
    lastAt: new Date(last ?? Date.now()),
  };
}

const eventKey = (e: RolloutEventRow) => `${e.cluster}/${e.eventUid}`;

/**
 * Stores every change of a Rollout's traffic state and every Rollout event, batched so bursts of hundreds of
 * changes per second cost one transaction of a few statements per flush. Unchanged states are not written again;
 * rows older than the retention are pruned. A failed write keeps its rows (up to a bound) and is retried with
 * backoff; `status()` says whether writes are failing, what is pending and what had to be dropped.
 */
export class Recorder {
  private readonly lastSignature = new Map<string, string>();
  private samples: RolloutSampleInput[] = [];
  private events = new Map<string, RolloutEventRow>();
  /** When the oldest unwritten row was queued (ms), for rollscope_recorder_queue_lag_seconds; null when none waits. */
  private queuedSince: number | null = null;
  private readonly health: RecorderHealth;
  private fleet: Fleet | null = null;
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
    this.health = new RecorderHealth({ now: options.now ?? Date.now, retryDelayMs: options.retryDelayMs ?? 500, maxRetryDelayMs: options.maxRetryDelayMs ?? 5_000 });
  }

  /**
   * Starts recording the fleet: the newest stored state of each Rollout, then every change from now on plus the
   * state the watches found before (what changed while Rollscope was down). When the database cannot be read yet,
   * it reports failing and keeps trying.
   */
  async start(fleet: Fleet): Promise<void> {
    this.fleet = fleet;
    reportRecorderQueue(() => ({ samples: this.samples.length, events: this.events.size, oldestQueuedAt: this.queuedSince }));
    this.flushTimer = setInterval(() => this.tick(), this.options.flushIntervalMs ?? 250);
    this.pruneTimer = setInterval(() => this.pruneInBackground(), this.options.pruneIntervalMs ?? 3_600_000);
    await this.attach();
    this.pruneInBackground();
  }

  status(): RecorderStatus {
    return this.health.view({ samples: this.samples.length, events: this.events.size });
  }

  private tick(): void {
    this.dropBeyondBounds();
    if (this.busy || !this.health.dueForAttempt()) return;
    this.busy = true;
    void (this.attached ? this.flush() : this.attach()).finally(() => (this.busy = false));
  }

  private async attach(): Promise<void> {
    if (!this.fleet || this.attached) return;
    try {
      await this.loadLastSignatures();
    } catch (err) {
      this.health.failed(err);
      return;
    }
    const fleet = this.fleet;
    this.unsubscribes.push(
      fleet.subscribe((delta) => {
        if (delta.type === "upsert") this.observeRollout(delta.rollout);
      }),
      fleet.subscribeRaw((cluster, kind, type, obj) => {
        if (kind === "events" && type === "upsert") this.observeEvent(cluster, obj);
      }),
    );
    // The watches listed before the subscription (they start with the app context): what they found is the
    // state at start-up, which differs from the newest stored one when a Rollout changed while Rollscope was down.
    for (const rollout of fleet.rollouts()) this.observeRollout(rollout);
    for (const cluster of fleet.clusters) for (const obj of cluster.objects("events")) this.observeEvent(cluster.name, obj);
    this.attached = true;
    this.health.started();
  }

  private observeRollout(rollout: FleetRollout): void {
    const sample = toRolloutSample(rollout, new Date(rollout.lastChangedAt));
    const key = `${sample.cluster}/${sample.namespace}/${sample.name}`;
    const signature = sampleSignature(sample);
    if (this.lastSignature.get(key) === signature) return;
    this.lastSignature.set(key, signature);
    this.samples.push(sample);
    this.queuedSince ??= Date.now();
  }

  private observeEvent(cluster: string, obj: KubernetesObject): void {
    const row = eventRow(cluster, obj);
    if (!row) return;
    this.events.set(eventKey(row), row);
    this.queuedSince ??= Date.now();
  }

  private async loadLastSignatures(): Promise<void> {
    // The newest row of each Rollout, so a restart does not write an unchanged state again.
    for (const row of await this.store.rolloutSamples.listLatestPerRollout()) {
      this.lastSignature.set(`${row.cluster}/${row.namespace}/${row.name}`, sampleSignature(row));
    }
  }

  /** Writes what has accumulated; calls are serialised so rows keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending());
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    const samples = this.samples;
    const events = [...this.events.values()];
    if (samples.length === 0 && events.length === 0) return;
    const queuedSince = this.queuedSince;
    this.samples = [];
    this.events = new Map();
    this.queuedSince = null;
    const startedAt = performance.now();
    try {
      await this.store.transaction(batchWrites(this.store, samples, events));
      observeRecorderWrite(startedAt, true);
      this.stored += samples.length;
      this.health.written(samples.length, events.length);
    } catch (err) {
      observeRecorderWrite(startedAt, false);
      this.queuedSince = queuedSince;
      // Keep what failed, ahead of what arrived meanwhile (a newer copy of an event wins), for the next attempt.
      this.samples = [...samples, ...this.samples];
      this.events = new Map([...events.map((e): [string, RolloutEventRow] => [eventKey(e), e]), ...this.events]);
      this.health.failed(err);
    }
  }

  /** Bounds memory while writes fail: the oldest unwritten rows go first; the newest state of each Rollout stays. */
  private dropBeyondBounds(): void {
    const excessSamples = this.samples.length - (this.options.maxPendingSamples ?? 50_000);
    if (excessSamples > 0) this.samples.splice(0, excessSamples);
    const excessEvents = this.events.size - (this.options.maxPendingEvents ?? 20_000);
    if (excessEvents > 0) this.events = new Map([...this.events].slice(excessEvents));
    this.health.dropped(Math.max(0, excessSamples), Math.max(0, excessEvents));
  }

  async prune(now = new Date()): Promise<{ samples: number; events: number }> {
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    const samples = await this.store.rolloutSamples.deleteBefore(cutoff);
    const events = await this.store.rolloutEvents.deleteBefore(cutoff);
    return { samples, events };
  }

  private pruneInBackground(): void {
    this.prune().catch((err: unknown) => console.warn("recorder: pruning old rows failed; will try again at the next prune", err));
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribes) u();
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.flush();
    this.health.stopped();
  }
}
