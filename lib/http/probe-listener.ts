import "server-only";
import { Worker } from "node:worker_threads";
import { ConfigError } from "@/lib/config/load-config";
import type { RollscopeConfig } from "@/lib/config/schema";
import { serverConfigSchema } from "@/lib/config/server-schema";

/** How often the main thread tells the probe listener it is alive, and asks itself whether it is ready. */
const BEAT_MS = 1_000;
const READINESS_EVERY_MS = 2_000;

export interface ProbeListenerOptions {
  /** `host:port` (IPv6 in brackets). */
  address: string;
  /** The process's readiness (database, migrations, warm-up), asked every 2 s on the main thread; why not, when not. */
  isReady: () => Promise<{ ready: boolean; reason: string | null }>;
  /** Liveness fails once the main thread has not beaten for this long: a wedged event loop still gets restarted. */
  stallMs?: number;
  /**
   * Readiness fails once the last readiness answer is this old (the main thread too busy to finish asking). As long as
   * liveness' bound by default: a burst that delays the answer (a flood of connections) must not take the pod out.
   */
  staleReadinessMs?: number;
}

/*
 * The listener runs in a worker thread with an event loop of its own: however many connections the pages' port has
 * queued and however busy the main thread is, the probe is accepted and answered at once from the last state the
 * main thread posted. Plain JavaScript evaluated in the worker, so it needs no file of its own in the build.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
let beatAt = Date.now();
let ready = false;
let readyAt = 0;
parentPort.on("message", (m) => {
  beatAt = Date.now();
  if (m && m.type === "readiness") { ready = m.ready === true; readyAt = beatAt; }
});
const send = (res, status, body) => {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
};
const server = http.createServer((req, res) => {
  const path = (req.url || "/").split("?")[0];
  const now = Date.now();
  const alive = now - beatAt < workerData.stallMs;
  if (path === "/api/healthz" || path === "/healthz") return send(res, alive ? 200 : 503, { alive });
  if (path === "/api/readyz" || path === "/readyz") {
    const isReady = alive && ready && now - readyAt < workerData.staleReadinessMs;
    return send(res, isReady ? 200 : 503, { ready: isReady });
  }
  send(res, 404, { error: { code: "not_found", message: "the probe listener answers /api/healthz and /api/readyz" } });
});
server.keepAliveTimeout = 65000;
server.on("error", (err) => parentPort.postMessage({ type: "error", message: String(err && err.message) }));
server.listen(workerData.port, workerData.host, () => parentPort.postMessage({ type: "listening" }));
`;

/** Where the probe listener listens: ROLLSCOPE_PROBE_LISTEN, else server.probeListen, else nowhere (null). */
export function probeListenAddress(config: RollscopeConfig, env: Record<string, string | undefined> = process.env): string | null {
  const fromEnv = env.ROLLSCOPE_PROBE_LISTEN?.trim();
  if (!fromEnv) return config.server.probeListen ?? null;
  const parsed = serverConfigSchema.shape.probeListen.safeParse(fromEnv);
  if (!parsed.success)
    throw new ConfigError(`ROLLSCOPE_PROBE_LISTEN: "${fromEnv}" ${parsed.error.issues[0]?.message ?? "is not host:port"}`);
  return parsed.data ?? null;
}

function splitAddress(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(":");
  return { host: address.slice(0, at).replace(/^\[(.*)\]$/, "$1"), port: Number(address.slice(at + 1)) };
}

/**
 * Starts the probe listener and resolves once it listens (rejects when the port is taken: a probe target must not
 * vanish silently). Liveness says the main thread beat within `stallMs`; readiness, that the last readiness answer
 * (at most `staleReadinessMs` old) was ready. Neither says more: details are for the signed-in UI on the pages' port.
 */
export function startProbeListener({
  address,
  isReady,
  stallMs = 60_000,
  staleReadinessMs = 60_000,
}: ProbeListenerOptions): Promise<() => void> {
  const { host, port } = splitAddress(address);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { host, port, stallMs, staleReadinessMs } });
  worker.unref();
  const beat = setInterval(() => worker.postMessage({ type: "beat" }), BEAT_MS);
  beat.unref();
  let asking = false;
  let wasReady: boolean | null = null;
  const ask = () => {
    if (asking) return;
    asking = true;
    isReady()
      .catch((err: unknown) => ({ ready: false, reason: err instanceof Error ? err.message : String(err) }))
      .then(({ ready, reason }) => {
        worker.postMessage({ type: "readiness", ready });
        // The kubelet sees only 503: the log says why, once per change.
        if (ready !== wasReady)
          console.log(`Rollscope: the readiness probe answers ${ready ? "ready" : `not ready (${reason ?? "no reason given"})`}`);
        wasReady = ready;
      })
      .finally(() => (asking = false));
  };
  const readiness = setInterval(ask, READINESS_EVERY_MS);
  readiness.unref();
  const stop = () => {
    clearInterval(beat);
    clearInterval(readiness);
    void worker.terminate();
  };
  return new Promise((resolve, reject) => {
    worker.on("message", (m: { type: string; message?: string }) => {
      if (m.type === "listening") {
        ask();
        resolve(stop);
      } else if (m.type === "error") {
        stop();
        reject(new Error(`the probe listener cannot listen on ${address}: ${m.message}`));
      }
    });
    worker.once("error", (err) => {
      stop();
      reject(err);
    });
  });
}
