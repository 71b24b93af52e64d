import "server-only";
import type { KubernetesObject } from "@kubernetes/client-node";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import type { Fleet } from "@/lib/fleet/fleet";
import { rateLimitedLog } from "@/lib/log/rate-limited-log";
import { parseKubeEvent } from "@/lib/rollouts/event-schema";
import { batchWrites, type RecorderStore } from "./batch-writes";
import { sampleSignature, toRolloutSample, type RolloutSampleInput } from "@/lib/rollouts/recorded-sample";

export interface RecorderOptions {
  retentionDays: number;
  flushIntervalMs?: number;
  pruneIntervalMs?: number;
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

/**
 * Stores every change of a Rollout's traffic state and every Rollout event, batched so bursts of hundreds of
 * changes per second cost one transaction of a few statements per flush. Unchanged states are not written again; rows older than the
 * retention are pruned.
 */
export class Recorder {
  private readonly lastSignature = new Map<string, string>();
  private samples: RolloutSampleInput[] = [];
  private events = new Map<string, RolloutEventRow>();
  private flushTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private unsubscribes: Array<() => void> = [];
  stored = 0;

  constructor(
    private readonly options: RecorderOptions,
    private readonly store: RecorderStore,
  ) {}

  async start(fleet: Fleet): Promise<void> {
    await this.loadLastSignatures();
    this.unsubscribes.push(
      fleet.subscribe((delta) => {
        if (delta.type !== "upsert") return;
        const sample = toRolloutSample(delta.rollout, new Date(delta.rollout.lastChangedAt));
        const key = `${sample.cluster}/${sample.namespace}/${sample.name}`;
        const signature = sampleSignature(sample);
        if (this.lastSignature.get(key) === signature) return;
        this.lastSignature.set(key, signature);
        this.samples.push(sample);
      }),
      fleet.subscribeRaw((cluster, kind, type, obj) => {
        if (kind !== "events" || type !== "upsert") return;
        const row = eventRow(cluster, obj);
        if (row) this.events.set(`${cluster}/${row.eventUid}`, row);
      }),
    );
    this.flushTimer = setInterval(() => void this.flush(), this.options.flushIntervalMs ?? 250);
    this.pruneTimer = setInterval(() => void this.prune(), this.options.pruneIntervalMs ?? 3_600_000);
    void this.prune();
  }

  private async loadLastSignatures(): Promise<void> {
    // The newest row of each Rollout, so a restart does not write an unchanged state again.
    for (const row of await this.store.rolloutSamples.listLatestPerRollout()) {
      this.lastSignature.set(`${row.cluster}/${row.namespace}/${row.name}`, sampleSignature(row));
    }
  }

  /** Writes what has accumulated; calls are serialised so rows keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const samples = this.samples;
      const events = [...this.events.values()];
      this.samples = [];
      this.events = new Map();
      if (samples.length === 0 && events.length === 0) return;
      try {
        await this.store.transaction(batchWrites(this.store, samples, events));
        this.stored += samples.length;
      } catch (err) {
        // Keep what failed for the next flush rather than lose it.
        this.samples = [...samples, ...this.samples];
        for (const e of events) if (!this.events.has(`${e.cluster}/${e.eventUid}`)) this.events.set(`${e.cluster}/${e.eventUid}`, e);
        rateLimitedLog().error("recorder flush", "recorder: flush failed; will retry", err);
      }
    });
    return this.flushing;
  }

  async prune(now = new Date()): Promise<{ samples: number; events: number }> {
    const cutoff = new Date(now.getTime() - this.options.retentionDays * 86_400_000);
    const samples = await this.store.rolloutSamples.deleteBefore(cutoff);
    const events = await this.store.rolloutEvents.deleteBefore(cutoff);
    return { samples, events };
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribes) u();
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.flush();
  }
}
