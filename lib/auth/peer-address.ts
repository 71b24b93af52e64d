import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * Next.js gives route handlers a Fetch `Request` without the TCP peer, and its own `x-forwarded-for` keeps whatever
 * the client sent. Proxy mode must know the real peer, so every incoming request gets this header overwritten with
 * `<process secret> <socket.remoteAddress>` before Next sees it (lib/http/request-gate); the secret proves the
 * value was set here.
 */
const PEER_HEADER = "x-rollscope-peer";

const SECRET = Symbol.for("rollscope.peerAddressSecret");
type GlobalWithSecret = typeof globalThis & { [SECRET]?: string };

/** Overwrites the peer header of an incoming request with this process's proof and the socket's address. */
export function stampPeerAddress(req: IncomingMessage): void {
  const g = globalThis as GlobalWithSecret;
  g[SECRET] ??= randomBytes(24).toString("base64url");
  req.headers[PEER_HEADER] = `${g[SECRET]} ${req.socket?.remoteAddress ?? ""}`;
}

/** The TCP peer of this request, or undefined when it cannot be proven (stamp missing or forged). */
export function readPeerAddress(headers: Headers): string | undefined {
  const secret = (globalThis as GlobalWithSecret)[SECRET];
  const value = headers.get(PEER_HEADER);
  if (!secret || !value) return undefined;
  const space = value.indexOf(" ");
  if (space < 0) return undefined;
  const given = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return value.slice(space + 1) || undefined;
}
