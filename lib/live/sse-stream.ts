import "server-only";
import type { LiveDelta, LiveSnapshot } from "@/lib/contracts/stream";
import type { DeltaLog, SequencedDelta } from "./delta-log";

const encoder = new TextEncoder();

/**
 * Bytes a client may leave unread before the server lets it go. A stalled tab would otherwise make the server buffer
 * the whole fleet's changes for it; cut off, the browser reconnects with Last-Event-ID and gets what it missed (or a
 * fresh snapshot), which is cheaper for both sides.
 */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

/**
 * How often at most a stream whose deltas were all left out (rows it does not carry, Rollouts its user may not read)
 * says which sequence number it is current to, so a reconnect resumes there and not from its last delta.
 */
const POSITION_INTERVAL_MS = 1_000;

function frame(event: string, id: number, data: unknown): Uint8Array {
  return encoder.encode(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

export interface FleetEventStreamOptions {
  /** Resume after this sequence number (Last-Event-ID or `since`); null for a snapshot first. */
  resumeFrom: number | null;
  signal: AbortSignal;
  /** Keys (`cluster/namespace/name`) of the Rollouts whose whole view follows each of their deltas (`rollout` event). */
  focus?: ReadonlySet<string>;
  /** The `rollout` event of a focused key, read at send time. */
  focusedView?: (key: string) => unknown;
  /** What this client may see of a delta, at send time: the delta, a rewritten one, or null to leave it out. */
  visibleDelta?: (delta: LiveDelta) => LiveDelta | null;
  /** Whether the client holds this delta's row (its `rows` scope); a focused Rollout's deltas are always carried. */
  carriesRow?: (delta: Extract<LiveDelta, { type: "upsert" | "delete" }>) => boolean;
  /** The opening snapshot; the log's own by default. */
  snapshot?: () => LiveSnapshot;
  /** Called once when the stream ends, however it ends. */
  onClose?: () => void;
  heartbeatMs?: number;
  positionIntervalMs?: number;
  maxUnreadBytes?: number;
}

function deltaKey(delta: SequencedDelta["delta"]): string | null {
  return delta.type === "upsert" ? delta.rollout.key : delta.type === "delete" ? delta.key : null;
}

/**
 * An SSE body: a snapshot (or, when resuming, only the missed deltas), then every delta the client holds and may
 * see, batched per event-loop turn, with a comment heartbeat so proxies keep the connection open. While every delta
 * is left out, a `position` event says (at most once a second) how far the stream has come. A focused Rollout's
 * whole view is sent when the stream opens and after each of its deltas. A client that stops reading is disconnected
 * once `maxUnreadBytes` are waiting for it.
 */
export function createFleetEventStream(log: DeltaLog, options: FleetEventStreamOptions): ReadableStream<Uint8Array> {
  const {
    resumeFrom,
    signal,
    focus = new Set<string>(),
    focusedView,
    visibleDelta,
    carriesRow,
    heartbeatMs = 15_000,
    positionIntervalMs = POSITION_INTERVAL_MS,
    maxUnreadBytes = MAX_UNREAD_BYTES,
  } = options;
  const focusedFrame = (key: string, id: number) => (focusedView ? frame("rollout", id, focusedView(key)) : null);
  const carried = (delta: LiveDelta): boolean =>
    !carriesRow || delta.type === "cluster" || focus.has(deltaKey(delta)!) || carriesRow(delta);
  // What this client holds and may see of each delta; the rest is never sent, nor a focused view it would trigger.
  const visibleOf = (entries: readonly SequencedDelta[]): readonly SequencedDelta[] => {
    if (!visibleDelta && !carriesRow) return entries;
    return entries.flatMap(({ seq, delta }) => {
      if (!carried(delta)) return [];
      const visible = visibleDelta ? visibleDelta(delta) : delta;
      return visible ? [{ seq, delta: visible }] : [];
    });
  };
  const deltaText = (entries: readonly SequencedDelta[]) =>
    entries.map(({ seq, delta }) => `id: ${seq}\nevent: delta\ndata: ${JSON.stringify(delta)}\n\n`).join("");
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let closed = false;
  const cleanup = () => {
    unsubscribe?.();
    if (heartbeat) clearInterval(heartbeat);
    if (!closed) options.onClose?.();
    closed = true;
  };
  const source: UnderlyingDefaultSource<Uint8Array> = {
    start(controller) {
      const send = (chunk: Uint8Array) => {
        try {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) < -maxUnreadBytes) {
            cleanup();
            // error(), not close(): the unread queue is dropped at once instead of waiting for a reader.
            controller.error(new Error("the client stopped reading the stream"));
          }
        } catch {
          cleanup();
        }
      };
      const missed = resumeFrom === null ? null : log.since(resumeFrom);
      const position = (seq: number) => frame("position", seq, seq);
      if (missed) {
        const visible = visibleOf(missed);
        if (visible.length > 0) send(encoder.encode(deltaText(visible)));
        else if (missed.length > 0) send(position(missed[missed.length - 1].seq));
      } else {
        send(frame("snapshot", log.lastSeq, options.snapshot ? options.snapshot() : log.snapshot()));
      }
      for (const key of focus) {
        const focused = focusedFrame(key, log.lastSeq);
        if (focused) send(focused);
      }
      let pending: SequencedDelta[] = [];
      let lastSentAt = Date.now();
      unsubscribe = log.subscribe((d) => {
        pending.push(d);
        if (pending.length === 1) {
          setImmediate(() => {
            const batch = visibleOf(pending);
            const newest = pending[pending.length - 1].seq;
            pending = [];
            const now = Date.now();
            if (batch.length === 0) {
              if (now - lastSentAt < positionIntervalMs) return;
              lastSentAt = now;
              return send(position(newest));
            }
            lastSentAt = now;
            // The focused Rollouts' views follow the batch, once each, as they are now.
            const focusedSeq = new Map<string, number>();
            for (const b of batch) {
              const key = deltaKey(b.delta);
              if (key !== null && focus.has(key)) focusedSeq.set(key, b.seq);
            }
            send(encoder.encode(deltaText(batch)));
            for (const [key, seq] of focusedSeq) {
              const focused = focusedFrame(key, seq);
              if (focused) send(focused);
            }
          });
        }
      });
      heartbeat = setInterval(() => send(encoder.encode(`: ping ${Date.now()}\n\n`)), heartbeatMs);
      const end = () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      // A client gone before the stream opened (while its scope was read) fires no abort event: end it now.
      if (signal.aborted) end();
      else signal.addEventListener("abort", end);
    },
    cancel() {
      cleanup();
    },
  };
  return new ReadableStream<Uint8Array>(source, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
}
