import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { EventEmitter } from "node:events";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";

/**
 * Next.js gives route handlers a Fetch `Request` without the TCP peer, and its own `x-forwarded-for` keeps whatever
 * the client sent. Proxy mode must know the real peer, so every incoming request gets this header overwritten with
 * `<process secret> <socket.remoteAddress>` before Next sees it; the secret proves the value was set here.
 */
export const PEER_HEADER = "x-rollscope-peer";

interface StampState {
  readonly secret: string;
}

const STATE = Symbol.for("rollscope.peerAddressStamp");
type GlobalWithStamp = typeof globalThis & { [STATE]?: StampState };

function stamp(req: IncomingMessage, secret: string): void {
  req.headers[PEER_HEADER] = `${secret} ${req.socket?.remoteAddress ?? ""}`;
}

/** Idempotent; call as early as possible (instrumentation `register`), requests before it count as untrusted. */
export function installPeerAddressStamp(): void {
  const g = globalThis as GlobalWithStamp;
  if (g[STATE]) return;
  const state: StampState = { secret: randomBytes(24).toString("base64url") };
  g[STATE] = state;
  for (const proto of [http.Server.prototype, https.Server.prototype] as EventEmitter[]) {
    const emit = proto.emit ?? EventEmitter.prototype.emit;
    proto.emit = function patchedEmit(this: EventEmitter, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") stamp(args[0] as IncomingMessage, state.secret);
      return emit.call(this, event, ...args);
    };
  }
}

/** The TCP peer of this request, or undefined when it cannot be proven (stamp missing or forged). */
export function readPeerAddress(headers: Headers): string | undefined {
  const state = (globalThis as GlobalWithStamp)[STATE];
  const value = headers.get(PEER_HEADER);
  if (!state || !value) return undefined;
  const space = value.indexOf(" ");
  if (space < 0) return undefined;
  const given = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(state.secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return value.slice(space + 1) || undefined;
}
