import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  chmodSync,
  chownSync,
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation } from "@/test/harness/rollout-scenario";
import type { ReadinessReport } from "@/lib/contracts/readiness";
import { assertFreshBuild } from "@/test/harness/app-process";
import { httpCall } from "@/test/harness/route-bridge";
import { findFreePort, waitFor } from "@/test/harness/free-port";
import { sumOf } from "@/test/harness/metrics-text";
import { postgresAvailable, startPostgres, type PostgresServer } from "@/test/harness/postgres";

/*
 * The image without a container engine: the standalone server as scripts/build-standalone.sh assembles it for the
 * Dockerfile, copied outside the repository (no node_modules above it to fall back on), made read-only, and started
 * by the image's entrypoint with the image's environment, as a non-root user, on a database that does not exist yet.
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
const NOBODY = 65534;
const SECRET = "s3cr3t-token-0123456789abcdef";
const workDir = mkdtempSync(path.join(tmpdir(), "rollscope-image-"));
const appDir = path.join(workDir, "app");
/** The image's `node` for its user: this run's Node, which may live where that user cannot reach (root's cache). */
const serverNode = path.join(workDir, "node-bin", "node");
const dataDir = path.join(workDir, "data");
let sim: SimulationHandle;
let server: ChildProcess;
let output = "";
let url: string;
let metricsUrl: string;
let probePort: number;
let filesBefore: string;
/** The Dockerfile's environment, with loopback addresses for the test (set in beforeAll). */
let imageEnv: Record<string, string> & { NODE_ENV: "production" };

/** Every file under `dir` with its size and modification time: what a write would change. */
function listFiles(dir: string): string {
  return execFileSync("find", [dir, "-printf", "%P %s %T@\n"], { encoding: "utf8" }).split("\n").sort().join("\n");
}

/** A file the server's user may read (the test's own files are root's, mode 0600). */
function shareWithServer(file: string): string {
  const copy = path.join(workDir, path.basename(file));
  copyFileSync(file, copy);
  chownSync(copy, NOBODY, NOBODY);
  return copy;
}

/** One of the image's scripts, from the read-only server directory, as the image's (non-root) user. */
function spawnAsServerUser(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const file = path.join(appDir, script);
  const [command, args] = script.endsWith(".sh") ? ["/bin/sh", [file]] : [serverNode, [file]];
  return spawn(command, args, {
    cwd: script.endsWith(".sh") ? "/" : appDir,
    env,
    uid: NOBODY,
    gid: NOBODY,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/** Until the process exits: its exit code and everything it wrote. */
function finished(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, output: text })));
}

function assembleReadOnlyServer(): void {
  assertFreshBuild();
  execFileSync("bash", [path.join(repoRoot, "scripts/build-standalone.sh")], { cwd: repoRoot, stdio: "pipe" });
  cpSync(path.join(repoRoot, ".next/standalone"), appDir, { recursive: true });
  execFileSync("chmod", ["-R", "a-w", appDir]);
  chmodSync(workDir, 0o755);
  // The image runs the Node the tests run on (package.json's engines), not an older one the machine has on PATH too:
  // scripts/ensure-node.sh may have put it in root's home, which the server's user cannot enter.
  mkdirSync(path.dirname(serverNode));
  try {
    linkSync(process.execPath, serverNode);
  } catch {
    copyFileSync(process.execPath, serverNode);
    chmodSync(serverNode, 0o755);
  }
  mkdirSync(dataDir);
  chownSync(dataDir, NOBODY, NOBODY);
}

beforeAll(async () => {
  assembleReadOnlyServer();
  filesBefore = listFiles(appDir);
  sim = await startActionsSimulation();
  const port = await findFreePort();
  const metricsPort = await findFreePort();
  probePort = await findFreePort();
  url = `http://127.0.0.1:${port}`;
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const kubeconfig = shareWithServer(sim.kubeconfigPath);
  const env = (imageEnv = {
    PATH: `${path.dirname(serverNode)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    NODE_ENV: "production" as const,
    NEXT_TELEMETRY_DISABLED: "1",
    HOME: "/tmp",
    PORT: String(port),
    ROLLSCOPE_LISTEN: "127.0.0.1",
    ROLLSCOPE_METRICS_LISTEN: `127.0.0.1:${metricsPort}`,
    ROLLSCOPE_PROBE_LISTEN: `127.0.0.1:${probePort}`,
    DATABASE_URL: `file:${path.join(dataDir, "rollscope.db")}`,
    KUBECONFIG: kubeconfig,
    ROLLSCOPE_CONFIG: shareWithServer(writeRollscopeConfig({ kubeconfigPath: kubeconfig, clusters: [{ name: "prod" }] })),
  });
  server = spawnAsServerUser("scripts/image/entrypoint.sh", env);
  server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<never>((_, reject) =>
    server.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${output}`))),
  );
  await Promise.race([
    waitFor("the standalone server to be ready", async () => (await fetch(`${url}/api/readyz`)).ok, 60_000, 200),
    exited,
  ]);
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const done = new Promise((resolve) => server.once("exit", resolve));
    server.kill("SIGTERM");
    await done;
  }
  await sim?.stop();
  execFileSync("rm", ["-rf", workDir]);
});

describe("the image's standalone server", () => {
  it("applied every shipped migration to the fresh database at start, as prisma migrate deploy records them", async () => {
    const shipped = readdirSync(path.join(repoRoot, "prisma/migrations")).filter((name) =>
      statSync(path.join(repoRoot, "prisma/migrations", name)).isDirectory(),
    );
    const db = new Database(path.join(dataDir, "rollscope.db"), { readonly: true });
    const rows = db.prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL").all() as {
      migration_name: string;
    }[];
    db.close();
    expect(rows.map((r) => r.migration_name).sort()).toStrictEqual(shipped.sort());
    const report = (await (await fetch(`${url}/api/readyz`)).json()) as ReadinessReport;
    expect(report.checks).toMatchObject({ database: { ok: true }, migrations: { ok: true } });
    await waitFor("the cluster to be reported connected", async () => {
      const clusters = ((await (await fetch(`${url}/api/readyz`)).json()) as ReadinessReport).clusters;
      return clusters?.[0]?.connection === "connected";
    });
  });

  it("rendered the overview once at start-up, through the entrypoint, before it first reported ready", () => {
    // beforeAll waited for /api/readyz: the warm-up (lib/server/warm-up.ts) ran and logged before that answered 200.
    expect(output).toMatch(/warmed up in \d+ ms \([2-4] pages, (?:5|10) API routes, [1-9]\d* assets\); ready/);
  });

  it("serves pages with their assets, and the probes (whatever the Host)", async () => {
    const page = await fetch(`${url}/rollouts/prod/shop/checkout`);
    expect(page.status).toBe(200);
    // Idle connections outlive the ingress's (60 s), not Node's 5-s default: no reset when the ingress reuses one.
    expect(page.headers.get("keep-alive")).toBe("timeout=65");
    const html = await page.text();
    const asset = /\/_next\/static\/[^"']+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    expect((await fetch(`${url}${asset}`)).status).toBe(200);
    // As the kubelet asks: by the Pod's IP.
    const byIp = { headers: { host: "10.1.2.3:3000" } };
    const liveness = await httpCall(`${url}/api/healthz`, byIp);
    expect(liveness.json()).toStrictEqual({ alive: true });
    expect((await httpCall(`${url}/api/readyz`, byIp)).status).toBe(200);
    expect((await httpCall(`${url}/api/clusters`, byIp)).status).toBe(421);
  });

  it("logs one JSON object per line, each request with its id, and no credential a failing request carried", async () => {
    const res = await fetch(`${url}/api/clusters/nowhere/rollouts/shop/checkout?access_token=${SECRET}`, {
      headers: { authorization: `Bearer ${SECRET}`, cookie: `rollscope_session=${SECRET}` },
    });
    expect(res.status, output.slice(-4000)).toBe(404);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = await waitFor("the request's log line", async () =>
      output.split("\n").find((l) => l.includes(`"reqId":"${requestId}"`) && l.includes('"msg":"request"')),
    );
    expect(JSON.parse(line)).toMatchObject({
      level: "info",
      method: "GET",
      route: "/api/clusters/[cluster]/rollouts/[namespace]/[name]",
      status: 404,
    });
    const lines = output.split("\n").filter(Boolean);
    for (const l of lines) expect(() => JSON.parse(l), l).not.toThrow();
    expect(output).not.toContain(SECRET);
  });

  it("serves GET /metrics on its own port only, with request durations by route pattern", async () => {
    const cart = await fetch(`${url}/rollouts/prod/shop/cart`);
    expect(cart.status).toBe(200);
    await cart.text();
    const pageViews = { method: "GET", route: "/rollouts/[cluster]/[namespace]/[name]", status: "200" };
    // Both detail pages (this one and the previous test's), under one route label.
    const text = await waitFor("both page views to be counted", async () => {
      const scraped = await (await fetch(metricsUrl)).text();
      return sumOf(scraped, "rollscope_http_request_duration_seconds_count", pageViews) >= 2 && scraped;
    });
    expect(text).not.toMatch(/route="\/rollouts\/prod/);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
  });

  it("runs as its own user from the standalone node_modules alone, with no dev dependency, writing nothing beside itself", () => {
    const uid = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1];
    expect(Number(uid)).toBe(NOBODY);
    const { devDependencies } = JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const present = Object.keys(devDependencies).filter((name) => existsSync(path.join(appDir, "node_modules", name)));
    expect(present).toStrictEqual([]);
    const resolve = spawnSync(process.execPath, ["-e", "require.resolve('prisma')"], { cwd: appDir });
    expect(resolve.status).not.toBe(0);
    expect(listFiles(appDir)).toBe(filesBefore);
  });

  it("passes the image's HEALTHCHECK, asked on the probe listener (and fails when nothing answers there)", () => {
    const healthcheck = (env: Record<string, string>) =>
      spawnSync(process.execPath, [path.join(appDir, "scripts/image/healthcheck.mjs")], { env: { NODE_ENV: "production", ...env } }).status;
    // The pages' port is set to one nothing listens on: only the probe listener can answer.
    expect(healthcheck({ PORT: "1", ROLLSCOPE_PROBE_LISTEN: `0.0.0.0:${probePort}` })).toBe(0);
    expect(healthcheck({ PORT: new URL(url).port })).toBe(0);
    expect(healthcheck({ PORT: new URL(url).port, ROLLSCOPE_PROBE_LISTEN: "0.0.0.0:1" })).toBe(1);
  });
});

describe.skipIf(!postgresAvailable())("the image's standalone server on PostgreSQL (DATABASE_URL=postgresql://…)", () => {
  let postgres: PostgresServer;
  let databaseUrl: string;
  let pgServer: ChildProcess | undefined;
  let pgOutput = "";

  beforeAll(async () => {
    postgres = await startPostgres();
    databaseUrl = await postgres.createDatabase("rollscope_image");
  }, 120_000);

  afterAll(async () => {
    if (pgServer && pgServer.exitCode === null) {
      const done = new Promise((resolve) => pgServer!.once("exit", resolve));
      pgServer.kill("SIGTERM");
      await done;
    }
    await postgres?.stop();
  }, 60_000);

  it("two replicas starting at once: one applies prisma/postgres's migrations, the other waits and finds none pending", async () => {
    const env = { ...imageEnv, DATABASE_URL: databaseUrl };
    // Prisma's own migration lock, held here so that both replicas are waiting for it before either may go on.
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock(72707369)");
    const running = [0, 1].map(() => finished(spawnAsServerUser("scripts/image/migrate.mjs", env)));
    try {
      await waitFor("both replicas to wait for the migration lock", async () => {
        const { rows } = await holder.query<{ waiting: number }>(
          "SELECT count(*)::int AS waiting FROM pg_locks WHERE locktype = 'advisory' AND objid = 72707369 AND NOT granted",
        );
        return rows[0].waiting === 2;
      });
    } finally {
      await holder.end();
    }
    const runs = await Promise.all(running);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const logs = runs
      .map((r) => r.output)
      .sort()
      .join("");
    expect(logs).toMatch(/database: applied 20261201150000_init/);
    expect(logs).toMatch(/database: no pending migrations/);
    // Recorded as Prisma records them: its own CLI finds the database up to date.
    const status = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/prisma/build/index.js"), "migrate", "status"], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: "utf8",
    });
    expect(status.stdout + status.stderr).toContain("Database schema is up to date!");
    expect(status.status).toBe(0);
  }, 120_000);

  it("starts through the entrypoint and reports the PostgreSQL database migrated and reachable", async () => {
    const port = await findFreePort();
    const env = {
      ...imageEnv,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      ROLLSCOPE_METRICS_LISTEN: `127.0.0.1:${await findFreePort()}`,
      ROLLSCOPE_PROBE_LISTEN: `127.0.0.1:${await findFreePort()}`,
    };
    pgServer = spawnAsServerUser("scripts/image/entrypoint.sh", env);
    pgServer.stdout?.on("data", (chunk: Buffer) => (pgOutput += chunk.toString()));
    pgServer.stderr?.on("data", (chunk: Buffer) => (pgOutput += chunk.toString()));
    const exited = new Promise<never>((_, reject) =>
      pgServer!.once("exit", (code) => reject(new Error(`the server exited with ${code}:\n${pgOutput}`))),
    );
    const ready = waitFor(
      "the server on PostgreSQL to be ready",
      async () => (await fetch(`http://127.0.0.1:${port}/api/readyz`).catch(() => null))?.ok,
      60_000,
      200,
    );
    await Promise.race([ready, exited]);
    const report = (await (await fetch(`http://127.0.0.1:${port}/api/readyz`)).json()) as ReadinessReport;
    expect(report.checks).toMatchObject({ database: { ok: true }, migrations: { ok: true } });
    expect(pgOutput).toContain("database: no pending migrations");
  }, 120_000);

  it("stops with the server named, and no password, when PostgreSQL cannot be reached", async () => {
    const url = `postgresql://rollscope:${SECRET}@127.0.0.1:${await findFreePort()}/rollscope`;
    const run = await finished(spawnAsServerUser("scripts/image/migrate.mjs", { ...imageEnv, DATABASE_URL: url }));
    expect(run.code).toBe(1);
    expect((JSON.parse(run.output.trim()) as { msg: string }).msg).toMatch(
      /^Rollscope cannot start: database: PostgreSQL at 127\.0\.0\.1:\d+ could not be reached: .*ECONNREFUSED/,
    );
    expect(run.output).not.toContain(SECRET);
  });

  it("refuses a URL of another database with a message saying which are accepted", async () => {
    const run = await finished(spawnAsServerUser("scripts/image/migrate.mjs", { ...imageEnv, DATABASE_URL: "mysql://db:3306/rollscope" }));
    expect(run.code).toBe(1);
    expect((JSON.parse(run.output.trim()) as { msg: string }).msg).toBe(
      'Rollscope cannot start: database: DATABASE_URL: scheme "mysql:" is not supported; use file:<path> (SQLite) or postgresql://user:password@host:port/database',
    );
  });
});
