import "server-only";
import type { KubernetesObject } from "@kubernetes/client-node";
import { getDb } from "@/lib/db/client";
import type { Fleet } from "@/lib/fleet/fleet";
import { rateLimitedLog } from "@/lib/log/rate-limited-log";
import { parseKubeEvent } from "@/lib/rollouts/event-schema";
import { batchWrites, type EventRow } from "./batch-writes";
import { sampleSignature, toRolloutSample, type RolloutSampleInput } from "./sample";

export interface RecorderOptions {
  retentionDays: number;
  flushIntervalMs?: number;
  pruneIntervalMs?: number;
}

function eventRow(cluster: string, obj: KubernetesObject): EventRow | null {
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
  private events = new Map<string, EventRow>();
  private flushTimer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private unsubscribes: Array<() => void> = [];
  stored = 0;

  constructor(private readonly options: RecorderOptions) {}

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
    const db = getDb();
    // The newest row of each Rollout, so a restart does not write an unchanged state again.
    const rows = await db.$queryRaw<Array<RolloutSampleInput & { verified: number | boolean | null; aborted: number | boolean; paused: number | boolean }>>`
      SELECT s.* FROM RolloutSample s
      JOIN (SELECT cluster, namespace, name, MAX(id) AS id FROM RolloutSample GROUP BY cluster, namespace, name) last
      ON s.id = last.id`;
    for (const row of rows) {
      const normalized = {
        ...row,
        verified: row.verified === null ? null : Boolean(row.verified),
        aborted: Boolean(row.aborted),
        paused: Boolean(row.paused),
      };
      this.lastSignature.set(`${row.cluster}/${row.namespace}/${row.name}`, sampleSignature(normalized));
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
      const db = getDb();
      try {
        await db.$transaction(batchWrites(db, samples, events));
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
    const db = getDb();
    const samples = await db.rolloutSample.deleteMany({ where: { at: { lt: cutoff } } });
    const events = await db.rolloutEvent.deleteMany({ where: { lastAt: { lt: cutoff } } });
    return { samples: samples.count, events: events.count };
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribes) u();
    if (this.flushTimer) clearInterval(this.flushTimer);
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    await this.flush();
  }
}
