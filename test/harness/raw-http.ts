import http, { type IncomingHttpHeaders } from "node:http";
import net from "node:net";

/** Whether a TCP connection to host:port is accepted (any 127.x.y.z is this machine's loopback). */
export function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(5_000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

export interface StreamedReply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** Body bytes this client had written when the answer arrived. */
  bytesSent: number;
}

export interface UploadOptions {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  /** Declared length; omit to send chunked without one. */
  contentLength?: number;
  /** Stop writing after this many bytes (the request then stays open without ending). */
  maxBytes: number;
  /** How long to wait for an answer once writing stopped. */
  answerWithinMs?: number;
}

/**
 * Streams a body at the server as fast as it reads it and stops at the server's answer: what a client sees when it
 * uploads far more than the server accepts. Rejects when no answer arrives in time.
 */
export function uploadUntilAnswered(options: UploadOptions): Promise<StreamedReply> {
  return new Promise((resolve, reject) => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    let bytesSent = 0;
    let answered = false;
    const req = http.request(options.url, {
      method: options.method ?? "POST",
      headers: {
        "content-type": "application/json",
        ...options.headers,
        ...(options.contentLength !== undefined ? { "content-length": String(options.contentLength) } : {}),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer after ${bytesSent} bytes sent`));
    }, options.answerWithinMs ?? 30_000);
    req.on("response", (res) => {
      answered = true;
      const sentAtAnswer = bytesSent;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString(), bytesSent: sentAtAnswer });
      });
    });
    req.on("error", (err) => {
      if (!answered) {
        clearTimeout(timer);
        reject(err);
      }
    });
    const pump = () => {
      while (!answered && bytesSent < options.maxBytes) {
        bytesSent += chunk.length;
        if (!req.write(chunk)) {
          req.once("drain", pump);
          return;
        }
      }
    };
    req.flushHeaders();
    pump();
  });
}

export interface KeepAliveProbe {
  /** The first answer's `Keep-Alive` header: how long the server says it keeps an idle connection. */
  keepAliveHeader: string | undefined;
  /** Whether the second request, sent after `idleMs` of silence, went over the first request's connection. */
  reused: boolean;
  secondStatus: number;
}

/**
 * Two GETs over one keep-alive connection with `idleMs` of silence between them, as a load balancer or a pooled
 * client reuses its idle connections. A server that closed the idle connection meanwhile makes the second request
 * open a new one (or, when the close crosses the request, fail with ECONNRESET).
 */
export async function probeKeepAlive(url: string, idleMs: number): Promise<KeepAliveProbe> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; reused: boolean }>((resolve, reject) => {
      const req = http.get(url, { agent }, (res) => {
        res.resume();
        res.once("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, reused: req.reusedSocket }));
      });
      req.once("error", reject);
    });
  try {
    const first = await get();
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const second = await get();
    return { keepAliveHeader: first.headers["keep-alive"]?.toString(), reused: second.reused, secondStatus: second.status };
  } finally {
    agent.destroy();
  }
}
