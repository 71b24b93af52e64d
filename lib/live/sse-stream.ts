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

/**
 * An SSE body: a snapshot (or, after a reconnect with Last-Event-ID, only the missed deltas), then every delta,
 * batched per event-loop turn, with a comment heartbeat so proxies keep the connection open. A client that stops
 * reading is disconnected once `maxUnreadBytes` are waiting for it.
 */
export function createFleetEventStream(
  log: DeltaLog,
  lastEventId: string | null,
  signal: AbortSignal,
  heartbeatMs = 15_000,
  maxUnreadBytes = MAX_UNREAD_BYTES,
): ReadableStream<Uint8Array> {
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
      const resumeFrom = lastEventId && /^\d+$/.test(lastEventId) ? Number(lastEventId) : null;
      const missed = resumeFrom === null ? null : log.since(resumeFrom);
      if (missed) {
        for (const d of missed) send(frame("delta", d.seq, d.delta));
      } else {
        send(frame("snapshot", log.lastSeq, log.snapshot()));
      }
      let pending: SequencedDelta[] = [];
      unsubscribe = log.subscribe((d) => {
        pending.push(d);
        if (pending.length === 1) {
          setImmediate(() => {
            const batch = pending;
            pending = [];
            send(encoder.encode(batch.map((b) => `id: ${b.seq}\nevent: delta\ndata: ${JSON.stringify(b.delta)}\n\n`).join("")));
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
