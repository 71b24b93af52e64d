import { findResourceType } from "../resources";
import type { KubeObject, ObjectStore } from "../store/object-store";
import type { SimClock } from "./sim-clock";

const EVENT_SOURCE = "rollouts-controller";
const events = findResourceType("", "v1", "events")!;

/** client-go EventSourceObjectSpamFilter defaults: burst 25, one token per 5 minutes per source+object. */
const SPAM_BURST = 25;
const SPAM_REFILL_SECONDS = 300;
/** Kubernetes keeps events for an hour (kube-apiserver --event-ttl). */
const EVENT_TTL_SECONDS = 3600;

export type EventType = "Normal" | "Warning";

export interface RecordedEvent {
  involvedObject: KubeObject;
  type: EventType;
  reason: string;
  message: string;
}

/** One event as the controller recorded it (and logged it), before dedup and spam filtering. */
export interface EventLogEntry {
  at: string;
  namespace: string;
  name: string;
  type: EventType;
  reason: string;
  message: string;
}

interface Bucket {
  tokens: number;
  lastRefillMs: number;
}

/**
 * The controller's EventRecorder: every call counts (`onRecord`, which feeds rollout_events_total) before
 * client-go's EventCorrelator dedups repeats into `count` and the spam filter drops bursts, as upstream
 * `utils/record/record.go` does. Events are core/v1 Event objects in the object's namespace.
 */
export class EventRecorder {
  private readonly seen = new Map<string, string>();
  private readonly buckets = new Map<string, Bucket>();
  private sequence = 0;
  private lastSweepMs = 0;
  readonly log: EventLogEntry[] = [];
  /** Events in creation order, so the TTL sweep never lists the whole collection. */
  private readonly expiry: Array<{ namespace: string; name: string }> = [];
  private expiryHead = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: SimClock,
    private readonly onRecord: (event: RecordedEvent) => void,
    private readonly onWrite: (verb: "create" | "patch" | "delete", namespace: string, name: string) => void = () => {},
    private readonly maxLog = 20_000,
  ) {}

  record(involvedObject: KubeObject, type: EventType, reason: string, message: string): void {
    this.onRecord({ involvedObject, type, reason, message });
    const meta = involvedObject.metadata;
    const namespace = meta.namespace ?? "default";
    this.log.push({ at: new Date(this.clock.now()).toISOString(), namespace, name: meta.name, type, reason, message });
    if (this.log.length > this.maxLog * 1.1) this.log.splice(0, this.log.length - this.maxLog);
    const objectKey = `${involvedObject.kind}/${namespace}/${meta.name}/${meta.uid}`;
    if (!this.takeToken(objectKey)) return;
    const now = this.clock.now();
    const timestamp = this.clock.iso(now);
    const key = `${objectKey}\u0000${type}\u0000${reason}\u0000${message}`;
    const existingName = this.seen.get(key);
    if (existingName && this.store.tryGet(events, namespace, existingName)) {
      this.store.update(events, namespace, existingName, (draft) => {
        draft.count = ((draft.count as number | undefined) ?? 1) + 1;
        draft.lastTimestamp = timestamp;
      });
      this.onWrite("patch", namespace, existingName);
      return;
    }
    const name = `${meta.name}.${(BigInt(now) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16)}`;
    this.store.ensureNamespace(namespace);
    this.store.create(events, namespace, {
      apiVersion: "v1",
      kind: "Event",
      metadata: { name, namespace },
      involvedObject: {
        kind: involvedObject.kind,
        namespace,
        name: meta.name,
        uid: meta.uid,
        apiVersion: involvedObject.apiVersion,
        resourceVersion: meta.resourceVersion,
      },
      reason,
      message,
      source: { component: EVENT_SOURCE },
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: EVENT_SOURCE,
      reportingInstance: "",
    });
    this.onWrite("create", namespace, name);
    this.seen.set(key, name);
    this.expiry.push({ namespace, name });
  }

  private takeToken(objectKey: string): boolean {
    const now = this.clock.now();
    const refillMs = this.clock.realMs(SPAM_REFILL_SECONDS);
    let bucket = this.buckets.get(objectKey);
    if (!bucket) {
      bucket = { tokens: SPAM_BURST, lastRefillMs: now };
      this.buckets.set(objectKey, bucket);
    }
    const refill = Math.floor((now - bucket.lastRefillMs) / refillMs);
    if (refill > 0) {
      bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + refill);
      bucket.lastRefillMs += refill * refillMs;
    }
    if (bucket.tokens <= 0) return false;
    bucket.tokens--;
    return true;
  }

  /** Deletes events whose lastTimestamp is older than the TTL (in simulated time); cheap to call often. */
  sweep(): void {
    const now = this.clock.now();
    if (now - this.lastSweepMs < this.clock.realMs(60)) return;
    this.lastSweepMs = now;
    const cutoff = now - this.clock.realMs(EVENT_TTL_SECONDS);
    const end = this.expiry.length;
    while (this.expiryHead < end) {
      const { namespace, name } = this.expiry[this.expiryHead];
      const event = this.store.tryGet(events, namespace, name);
      if (event) {
        const last = Date.parse(String(event.lastTimestamp));
        if (last >= cutoff) {
          // Oldest by creation but refreshed by a repeat: look again later.
          if (Date.parse(String(event.firstTimestamp)) >= cutoff) break;
          this.expiry.push({ namespace, name });
          this.expiryHead++;
          continue;
        }
        this.store.delete(events, namespace, name);
        this.onWrite("delete", namespace, name);
      }
      this.expiryHead++;
    }
    if (this.expiryHead > 10_000) {
      this.expiry.splice(0, this.expiryHead);
      this.expiryHead = 0;
    }
    if (this.seen.size > 50_000) this.seen.clear();
  }
}
