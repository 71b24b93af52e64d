import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";

/** Listens on `port` (0: one the kernel picks) and closes again; resolves with the port, or null when it is taken. */
function probePort(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", (err: NodeJS.ErrnoException) =>
      err.code === "EADDRINUSE" || err.code === "EACCES" ? resolve(null) : reject(err),
    );
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : null));
    });
  });
}

/** The first port of the kernel's ephemeral range (what outgoing connections and `listen(0)` take), 32768 when unread. */
export function ephemeralRangeStart(rangeText?: string): number {
  try {
    const text = rangeText ?? readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
    const low = Number(text.trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Ports below the ephemeral range the cluster picks from. */
const PICKED_PORTS_FROM = 20_000;

/**
 * A loopback port that is free right now, chosen below the kernel's ephemeral range: a component binds its port
 * seconds after it was chosen, and a port of the ephemeral range can meanwhile become the local end of one of the
 * machine's outgoing connections (a clean-clone run's Traefik found its metrics port so taken). Falls back to a port
 * the kernel picks when the range below leaves no room or no free port was found.
 */
export async function freePort(): Promise<number> {
  const end = ephemeralRangeStart();
  if (end - PICKED_PORTS_FROM >= 1_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const candidate = PICKED_PORTS_FROM + Math.floor(Math.random() * (end - PICKED_PORTS_FROM));
      if (handedOut.has(candidate)) continue;
      const port = await probePort(candidate);
      if (port !== null) return handOut(port);
    }
  }
  const port = await probePort(0);
  if (port === null || handedOut.has(port)) throw new Error("no free port");
  return handOut(port);
}

/**
 * Every port freePort has returned in this process. A port is chosen before its component binds it, so a port still
 * free can already be promised to another component: the seventeen ports of a test cluster (its twelve, the plugin
 * meters' five) drawn at random would share one about once in 100 starts (a clean-clone run's Prometheus found the
 * pods' network's port taken).
 */
const handedOut = new Set<number>();

function handOut(port: number): number {
  handedOut.add(port);
  return port;
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
