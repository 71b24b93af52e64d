import { spawn } from "node:child_process";
import http, { type IncomingMessage } from "node:http";

/** Connection floods against /api/stream and a kubelet-like prober: the stream-limits test and the probe benchmark. */

export interface StreamAttempt {
  status: number;
  retryAfter: string | undefined;
  body: string;
  response: IncomingMessage;
}

/** Opens GET /api/stream on a socket of its own from `localAddress` and resolves at the response head (a 429's body read). */
export function attemptStream(port: number, localAddress: string): Promise<StreamAttempt> {
  return new Promise((resolve, reject) => {
    const req = http.get({
      host: "127.0.0.1",
      port,
      path: "/api/stream",
      localAddress,
      agent: false,
      headers: { host: `127.0.0.1:${port}` },
    });
    req.once("error", reject);
    req.once("response", (response) => {
      const attempt = { status: response.statusCode ?? 0, retryAfter: response.headers["retry-after"] as string | undefined, response };
      if (attempt.status === 200) return resolve({ ...attempt, body: "" });
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.once("end", () => resolve({ ...attempt, body }));
    });
  });
}

/** `attempts` stream connections at once, spread over 127.0.0.2… (`addresses` client addresses); failed connects are null. */
export function floodStreams(port: number, attempts: number, addresses: number): Promise<(StreamAttempt | null)[]> {
  return Promise.all(Array.from({ length: attempts }, (_, i) => attemptStream(port, `127.0.0.${2 + (i % addresses)}`).catch(() => null)));
}

export interface ProbeResult {
  path: string;
  /** 0 when no answer came within the timeout. */
  status: number;
  ms: number;
}

/*
 * The kubelet's side: a process of its own probing liveness and readiness every 200 ms with a timeout (a prober in
 * the flooding process would measure that process's own sockets), printing one JSON line per probe.
 */
const PROBER_SOURCE = `
const http = require("node:http");
const [port, timeoutMs] = process.argv.slice(1).map(Number);
const probe = (path) => new Promise((resolve) => {
  const started = performance.now();
  const done = (status) => resolve({ path, status, ms: performance.now() - started });
  const req = http.get({ host: "127.0.0.1", port, path, agent: false, timeout: timeoutMs }, (res) => {
    res.resume();
    res.once("end", () => done(res.statusCode));
  });
  req.once("timeout", () => req.destroy(new Error("timeout")));
  req.once("error", () => done(0));
});
let running = true;
process.on("SIGTERM", () => (running = false));
(async () => {
  while (running) {
    for (const r of await Promise.all([probe("/api/healthz"), probe("/api/readyz")])) console.log(JSON.stringify(r));
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
})();
`;

/** Starts probing `port`; `stop()` ends it and returns every probe's result. */
export function startProber(port: number, timeoutMs: number): { stop: () => Promise<ProbeResult[]> } {
  const child = spawn(process.execPath, ["-e", PROBER_SOURCE, String(port), String(timeoutMs)], { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    async stop() {
      child.kill("SIGTERM");
      await exited;
      return output
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as ProbeResult);
    },
  };
}
