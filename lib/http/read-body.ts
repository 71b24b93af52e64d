import "server-only";
import { bodyTooLarge, declaredLengthRefusal } from "./admission";

/** After refusing a body, how much more of it is read and dropped so the client can still receive the 413. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Reads what the client sends after the limit and throws it away, so the connection is not reset under the 413 on
 * its way out (cancelling the stream would destroy the socket), and stops after DRAIN_LIMIT_BYTES.
 */
async function drainInBackground(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let drained = 0;
  try {
    while (drained < DRAIN_LIMIT_BYTES) {
      const { done, value } = await reader.read();
      if (done) return;
      drained += value.byteLength;
    }
    await reader.cancel();
  } catch {
    /* the client went away */
  }
}

/**
 * The request body parsed as JSON (undefined when it is empty or not JSON), read with a byte counter: a declared
 * length over `limit` is refused before reading, and a streamed body is refused (413) as soon as it passes `limit`,
 * without being held in memory.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const declared = declaredLengthRefusal(request.headers.get("content-length"), limit);
  if (declared) throw declared;
  if (!request.body) return undefined;
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      void drainInBackground(reader);
      throw bodyTooLarge(limit);
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}
