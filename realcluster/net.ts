import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";

/** A loopback port that is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

/** Throws "port N (what) is in use" when something already listens there. */
export function assertPortFree(
  port: number,
  what: string,
  hint = "stop what listens there, or choose other ports (--base-port)",
): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === "EADDRINUSE" ? `port ${port} (${what}) is in use: ${hint}` : `port ${port} (${what}): ${err.message}`)),
    );
    server.listen(port, "127.0.0.1", () => server.close(() => resolve()));
  });
}

export interface ClientTls {
  ca: string;
  cert: string;
  key: string;
}

/** GET over http or https (with the cluster's CA and a client certificate); resolves with status and body. */
export function httpGet(url: string, tls?: ClientTls, timeoutMs = 5_000): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const options = tls
      ? { ca: readFileSync(tls.ca), cert: readFileSync(tls.cert), key: readFileSync(tls.key), timeout: timeoutMs }
      : { timeout: timeoutMs };
    const req = (url.startsWith("https:") ? httpsRequest : httpRequest)(url, options, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.once("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.once("error", reject);
    req.end();
  });
}

/** Polls until `check` returns true; rejects with `what` (and the last error) after the timeout, or when `abort` rejects. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number, abort?: Promise<never>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = "";
  const poll = async () => {
    while (Date.now() < deadline) {
      try {
        if (await check()) return;
      } catch (err) {
        lastError = err instanceof Error ? err.message : String(err);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`${what} within ${Math.round(timeoutMs / 1000)} s${lastError ? ` (last error: ${lastError})` : ""}`);
  };
  await (abort ? Promise.race([poll(), abort]) : poll());
}
