import "server-only";
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import { stampPeerAddress } from "@/lib/auth/peer-address";
import { currentRequestContext, runInRequestContext } from "@/lib/log/request-context";
import { ApiError, type ErrorEnvelope } from "@/lib/errors/api-error";
import { getServerSettings } from "@/lib/server/server-settings";
import { declaredLengthRefusal, hostRefusal } from "./admission";
import { observeRequest } from "./request-log";

const INSTALLED = Symbol.for("rollscope.requestGate");
type GlobalWithGate = typeof globalThis & { [INSTALLED]?: true };

/** Next's own server: the port it put in PORT when it started listening. Other servers in the process are not ours. */
function isAppServer(req: IncomingMessage): boolean {
  const port = Number(process.env.PORT);
  return Number.isInteger(port) && port > 0 && req.socket?.localPort === port;
}

function refusal(req: IncomingMessage): ApiError | null {
  try {
    const settings = getServerSettings();
    return (
      hostRefusal(req.headers.host, settings, (req.url ?? "/").split("?")[0]) ??
      declaredLengthRefusal(req.headers["content-length"], settings.maxRequestBodyBytes)
    );
  } catch {
    return new ApiError("internal", "the configuration could not be read");
  }
}

/** After a refusal, how much of the unread body is read and dropped so the client sees the answer, not a reset. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Answers with the JSON envelope. The body is not read into memory: what the client keeps sending is dropped (a
 * lingering close, so the answer is not lost under a connection reset) and past DRAIN_LIMIT_BYTES the connection is cut.
 */
function refuse(req: IncomingMessage, res: ServerResponse, error: ApiError, requestId: string): void {
  const body: ErrorEnvelope = { error: { code: error.code, message: error.message } };
  let drained = 0;
  req.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  res.writeHead(error.status, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "x-request-id": requestId,
  });
  res.end(JSON.stringify(body));
}

/** Refuses the request or hands it to Next, timed and logged when its response ends (see request-log). */
function admit(req: IncomingMessage, res: ServerResponse, handOn: () => boolean): boolean {
  const requestId = currentRequestContext()!.requestId;
  observeRequest(req, res, requestId);
  const refused = refusal(req);
  if (refused) {
    refuse(req, res, refused, requestId);
    return true;
  }
  return handOn();
}

/**
 * Every request to Next's server passes here before Next sees it, pages, assets and API alike: the peer address is
 * stamped (for proxy mode), a request for a host not in the allowed list gets 421, and one declaring a body over
 * server.maxRequestBodyBytes gets 413 without a byte of it being read. Each gets a request id that every log line
 * written while it is handled carries (and the route wrapper answers with), and is timed and logged when it ends. Idempotent; installed by the
 * instrumentation hook before anything else, and by the route wrapper for processes that load routes directly.
 */
export function installRequestGate(): void {
  const g = globalThis as GlobalWithGate;
  if (g[INSTALLED]) return;
  g[INSTALLED] = true;
  for (const proto of [http.Server.prototype, https.Server.prototype] as EventEmitter[]) {
    const emit = proto.emit ?? EventEmitter.prototype.emit;
    proto.emit = function gatedEmit(this: EventEmitter, event: string | symbol, ...args: unknown[]): boolean {
      if (event === "request") {
        const [req, res] = args as [IncomingMessage, ServerResponse];
        stampPeerAddress(req);
        if (isAppServer(req))
          return runInRequestContext({ requestId: randomUUID() }, () => admit(req, res, () => emit.call(this, event, ...args)));
      }
      return emit.call(this, event, ...args);
    };
  }
}
