import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { stringify } from "yaml";

/**
 * A real Prometheus for tests: finds the binary, writes a config that scrapes the given targets every second,
 * starts it on a free loopback port with a throw-away TSDB, waits for readiness and the first scrape of every
 * target, and stops it. Nothing outside 127.0.0.0/8 is ever contacted.
 */

export interface ScrapeTarget {
  job: string;
  /** Full URL of the metrics endpoint, e.g. http://127.0.0.1:41234/metrics (loopback only). */
  url: string;
  /** Extra labels on every series of this target. */
  labels?: Record<string, string>;
}

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface PrometheusHandle {
  url: string;
  port: number;
  /** Instant query; returns the vector (or a one-element list for a scalar). */
  query(promql: string, time?: Date): Promise<PromSample[]>;
  /** The single value of an instant query, or null when the result is empty. */
  queryValue(promql: string): Promise<number | null>;
  /** Resolves once every target has been scraped successfully after this call. */
  waitForScrape(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** The last lines Prometheus wrote (for failure messages). */
  logs(): string;
}

const CANDIDATES = [process.env.PROMETHEUS_BIN, "/usr/bin/prometheus", "/usr/local/bin/prometheus"];

/** The Prometheus binary, or null (tests then skip with a reason). */
export function findPrometheus(): string | null {
  for (const candidate of CANDIDATES) if (candidate && existsSync(candidate)) return candidate;
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function assertLoopback(url: string): URL {
  const parsed = new URL(url);
  if (!/^127\.\d+\.\d+\.\d+$/.test(parsed.hostname) && parsed.hostname !== "localhost") {
    throw new Error(`refusing to scrape a non-loopback target: ${url}`);
  }
  return parsed;
}

function buildConfig(targets: ScrapeTarget[], intervalSeconds: number): string {
  return stringify({
    global: { scrape_interval: `${intervalSeconds}s`, scrape_timeout: `${intervalSeconds}s`, evaluation_interval: `${intervalSeconds}s` },
    scrape_configs: targets.map((t) => {
      const url = assertLoopback(t.url);
      return {
        job_name: t.job,
        metrics_path: url.pathname,
        scheme: url.protocol.replace(":", ""),
        static_configs: [{ targets: [url.host], ...(t.labels ? { labels: t.labels } : {}) }],
      };
    }),
  });
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

export async function startPrometheus(options: {
  targets: ScrapeTarget[];
  scrapeIntervalSeconds?: number;
  binary?: string;
  /** How long to wait for every target's first successful scrape (large simulated fleets answer slowly). */
  readyTimeoutMs?: number;
}): Promise<PrometheusHandle> {
  const binary = options.binary ?? findPrometheus();
  if (!binary) throw new Error("prometheus binary not found (apt-get install -y --no-install-recommends prometheus)");
  const interval = options.scrapeIntervalSeconds ?? 1;
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-prom-"));
  const configFile = path.join(dir, "prometheus.yml");
  writeFileSync(configFile, buildConfig(options.targets, interval));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child: ChildProcess = spawn(
    binary,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--storage.tsdb.retention.time=1h",
      "--log.level=warn",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const collect = (chunk: Buffer) => {
    output.push(...chunk.toString().split("\n").filter(Boolean));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  let exited = false;
  const exitedPromise = new Promise<void>((resolve) => child.once("exit", () => ((exited = true), resolve())));

  const stop = async () => {
    if (!exited) {
      child.kill("SIGTERM");
      const timeout = sleep(5000).then(() => {
        if (!exited) child.kill("SIGKILL");
      });
      await Promise.race([exitedPromise, timeout]);
      await exitedPromise;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const query = async (promql: string, time?: Date): Promise<PromSample[]> => {
    const params = new URLSearchParams({ query: promql });
    if (time) params.set("time", String(time.getTime() / 1000));
    const res = await fetch(`${url}/api/v1/query?${params}`);
    const body = (await res.json()) as { status: string; error?: string; data?: { resultType: string; result: unknown } };
    if (body.status !== "success" || !body.data) throw new Error(`PromQL ${promql} failed: ${body.error ?? res.status}`);
    if (body.data.resultType === "scalar") {
      const [ts, value] = body.data.result as [number, string];
      return [{ metric: {}, value: [ts, value] }];
    }
    return body.data.result as PromSample[];
  };

  const handle: PrometheusHandle = {
    url,
    port,
    query,
    async queryValue(promql) {
      const result = await query(promql);
      return result.length === 0 ? null : Number(result[0].value[1]);
    },
    async waitForScrape(timeoutMs = 20_000) {
      const since = Date.now() / 1000;
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const res = await fetch(`${url}/api/v1/targets?state=active`).catch(() => null);
        if (res?.ok) {
          const body = (await res.json()) as { data: { activeTargets: Array<{ health: string; lastScrape: string }> } };
          const targets = body.data.activeTargets;
          if (
            targets.length === options.targets.length &&
            targets.every((t) => t.health === "up" && Date.parse(t.lastScrape) / 1000 > since)
          )
            return;
        }
        await sleep(200);
      }
      throw new Error(`targets were not scraped within ${timeoutMs} ms\n${output.join("\n")}`);
    },
    stop,
    logs: () => output.join("\n"),
  };

  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited) throw new Error(`prometheus exited during start-up\n${output.join("\n")}`);
      const ready = await fetch(`${url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`prometheus not ready within 30 s\n${output.join("\n")}`);
      await sleep(150);
    }
    await handle.waitForScrape(options.readyTimeoutMs);
  } catch (err) {
    await stop();
    throw err;
  }
  return handle;
}
