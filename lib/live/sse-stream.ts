import "server-only";
import type { DeltaLog, SequencedDelta } from "./delta-log";

const encoder = new TextEncoder();

/**
 * Bytes a client may leave unread before the server lets it go. A stalled tab would otherwise make the server buffer
 * the whole fleet's changes for it; cut off, the browser reconnects with Last-Event-ID and gets what it missed (or a
 * fresh snapshot), which is cheaper for both sides.
 */
export const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

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
  heartbeatMs?: number;
  maxUnreadBytes?: number;
}

function deltaKey(delta: SequencedDelta["delta"]): string | null {
  return delta.type === "upsert" ? delta.rollout.key : delta.type === "delete" ? delta.key : null;
}

/**
 * An SSE body: a snapshot (or, when resuming, only the missed deltas), then every delta, batched per event-loop turn,
 * with a comment heartbeat so proxies keep the connection open. A focused Rollout's whole view is sent when the
 * stream opens and after each of its deltas. A client that stops reading is disconnected once `maxUnreadBytes` are
 * waiting for it.
 */
export function createFleetEventStream(log: DeltaLog, options: FleetEventStreamOptions): ReadableStream<Uint8Array> {
  const { resumeFrom, signal, focus = new Set<string>(), focusedView, heartbeatMs = 15_000, maxUnreadBytes = MAX_UNREAD_BYTES } = options;
  const focusedFrame = (key: string, id: number) => (focusedView ? frame("rollout", id, focusedView(key)) : null);
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  const cleanup = () => {
    unsubscribe?.();
    if (heartbeat) clearInterval(heartbeat);
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
      if (missed) {
        for (const d of missed) send(frame("delta", d.seq, d.delta));
      } else {
        send(frame("snapshot", log.lastSeq, log.snapshot()));
      }
      for (const key of focus) {
        const focused = focusedFrame(key, log.lastSeq);
        if (focused) send(focused);
      }
      let pending: SequencedDelta[] = [];
      unsubscribe = log.subscribe((d) => {
        pending.push(d);
        if (pending.length === 1) {
          setImmediate(() => {
            const batch = pending;
            pending = [];
            const text = batch.map((b) => `id: ${b.seq}\nevent: delta\ndata: ${JSON.stringify(b.delta)}\n\n`).join("");
            // The focused Rollouts' views follow the batch, once each, as they are now.
            const focusedSeq = new Map<string, number>();
            for (const b of batch) {
              const key = deltaKey(b.delta);
              if (key !== null && focus.has(key)) focusedSeq.set(key, b.seq);
            }
            send(encoder.encode(text));
            for (const [key, seq] of focusedSeq) {
              const focused = focusedFrame(key, seq);
              if (focused) send(focused);
            }
          });
        }
      });
      heartbeat = setInterval(() => send(encoder.encode(`: ping ${Date.now()}\n\n`)), heartbeatMs);
      signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      cleanup();
    },
  };
  return new ReadableStream<Uint8Array>(source, new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }));
}
