import { Agent, request } from "node:http";

/**
 * A steady request rate through the proxy's entry point, on loopback only and bounded: at most `maxInFlight`
 * requests at once (a tick that would exceed it skips, and counts the skip), never more than `ratePerSecond`, and it
 * stops with the cluster (or when stop() is called).
 */
export interface LoadGenerator {
  readonly sent: number;
  readonly skipped: number;
  /** Responses by status code ("error" for a failed connection). */
  readonly answered: Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

export interface LoadOptions {
  /** The proxy's entry point, e.g. http://127.0.0.1:40080; must be a loopback address. */
  url: string;
  /** The Host header (the Ingress rule's host). */
  host: string;
  ratePerSecond?: number;
  maxInFlight?: number;
}

const TICK_MS = 20;

export function startLoadGenerator(options: LoadOptions): LoadGenerator {
  const target = new URL(options.url);
  if (!/^127\.\d+\.\d+\.\d+$/.test(target.hostname)) throw new Error(`the load generator only sends to loopback, not ${target.hostname}`);
  const rate = options.ratePerSecond ?? 50;
  const maxInFlight = options.maxInFlight ?? 50;
  const agent = new Agent({ keepAlive: true, maxSockets: maxInFlight });
  const answered: Record<string, number> = {};
  const started = Date.now();
  let sent = 0;
  let skipped = 0;
  let inFlight = 0;
  let idle: (() => void) | null = null;

  const send = () => {
    inFlight += 1;
    sent += 1;
    const done = (code: string) => {
      answered[code] = (answered[code] ?? 0) + 1;
      inFlight -= 1;
      if (inFlight === 0) idle?.();
    };
    const req = request(
      { agent, host: target.hostname, port: target.port, path: "/", headers: { host: options.host }, timeout: 5_000 },
      (res) => {
        res.resume();
        res.once("end", () => done(String(res.statusCode)));
        res.once("error", () => done("error"));
      },
    );
    req.once("timeout", () => req.destroy(new Error("timed out")));
    req.once("error", () => done("error"));
    req.end();
  };

  // Due requests from the start time, so timer jitter changes the spacing, never the rate.
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) / 1000) * rate) - sent - skipped;
    for (let i = 0; i < due; i++) {
      if (inFlight >= maxInFlight) skipped += 1;
      else send();
    }
  }, TICK_MS);
  timer.unref();

  return {
    get sent() {
      return sent;
    },
    get skipped() {
      return skipped;
    },
    answered,
    async stop() {
      clearInterval(timer);
      if (inFlight > 0) await new Promise<void>((resolve) => (idle = resolve));
      agent.destroy();
    },
  };
}
