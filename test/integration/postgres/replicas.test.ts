import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, startCanary, waitForRollout, isPausedAt } from "@/test/harness/rollout-scenario";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { sampleSignature } from "@/lib/rollouts/recorded-sample";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { findFreePort, waitFor } from "@/test/harness/free-port";
import { startPostgres, type PostgresServer } from "@/test/harness/postgres";
import { checkRecorded, churn, readiness, resourceVersions } from "@/test/harness/replica-fleet";

/*
 * Two replicas of the built app (`next start`) on one PostgreSQL database and the same simulated clusters. One
 * records history; both serve pages, streams and actions; the stale-state guard and the audit log hold across them;
 * a SIGKILL of the recording one hands recording to the other without losing or duplicating a transition. Then the
 * database (a throw-away server of this file's own) goes away and comes back, and a wrong DATABASE_URL stops
 * `npm start`. One file, so the simulator and the replicas start once.
 */

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const CHURNED = ["catalog", "search", "ledger", "payments", "orders"];
let sim: SimulationHandle;
let server: PostgresServer;
let databaseUrl: string;
let a: AppProcess;
let b: AppProcess;
let stopChurn = () => {};

async function csrfOf(app: AppProcess): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/session`);
  const body = (await res.json()) as { csrfToken: string };
  return { token: body.csrfToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
}

async function postAction(app: AppProcess, name: string, body: unknown): Promise<Response> {
  const csrf = await csrfOf(app);
  return fetch(`${app.url}/api/clusters/prod/rollouts/shop/${name}/actions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, cookie: csrf.cookie, "x-csrf-token": csrf.token },
    body: JSON.stringify(body),
  });
}

async function viewAtCurrentVersion(app: AppProcess, name: string): Promise<RolloutActionsView> {
  return waitFor(`${name}'s actions view on ${app.url} at the simulator's version`, async () => {
    const res = await fetch(`${app.url}/api/clusters/prod/rollouts/shop/${name}/actions`);
    const view = (await res.json()) as RolloutActionsView;
    return view.expected.resourceVersion === readRollout(sim, "prod", "shop", name).metadata.resourceVersion ? view : null;
  });
}

async function firstStreamEvent(app: AppProcess): Promise<string> {
  const stop = new AbortController();
  const res = await fetch(`${app.url}/api/stream`, { signal: stop.signal });
  const { value } = await res.body!.getReader().read();
  stop.abort();
  return new TextDecoder().decode(value);
}

beforeAll(async () => {
  assertFreshBuild();
  sim = await startActionsSimulation();
  await startCanary(sim, "prod", "checkout");
  const config = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }, { name: "legacy" }] });
  server = await startPostgres();
  databaseUrl = await server.createDatabase("rollscope");
  const env = { ROLLSCOPE_CONFIG: config };
  // Each replica is used once /api/readyz says ready, as its Service would (after its start-up warm-up).
  a = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, databaseUrl, env, readyPath: "/api/readyz" });
  await waitFor("replica A to lead", async () => (await readiness(a.url)).report.recorder?.state === "recording");
  b = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, databaseUrl, env, readyPath: "/api/readyz" });
  stopChurn = churn(sim, CHURNED);
}, 180_000);

afterAll(async () => {
  stopChurn();
  await a?.stop();
  await b?.stop();
  await sim?.stop();
  await server?.stop();
});

describe("two replicas on one PostgreSQL", () => {
  it("exactly one records history; both are ready and serve pages and the live stream", async () => {
    const [ra, rb] = await Promise.all([readiness(a.url), readiness(b.url)]);
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.report.leadership).toMatchObject({ mode: "postgres-advisory-lock", role: "leader" });
    expect(ra.report.recorder).toMatchObject({ state: "recording" });
    expect(rb.report.leadership).toMatchObject({ mode: "postgres-advisory-lock", role: "standby" });
    expect(rb.report.recorder).toMatchObject({ state: "standby", lastWriteAt: null });
    for (const app of [a, b]) {
      const res = await fetch(`${app.url}/api/rollouts`);
      expect(res.status).toBe(200);
      expect(await firstStreamEvent(app)).toContain("event: snapshot");
    }
  });

  it("a double click split across the replicas sends one action; both outcomes are in the one audit log", async () => {
    const view = await viewAtCurrentVersion(a, "checkout");
    await viewAtCurrentVersion(b, "checkout");
    const body = { action: "promote", expected: view.expected };
    const [ra, rb] = await Promise.all([postAction(a, "checkout", body), postAction(b, "checkout", body)]);
    expect([ra.status, rb.status].sort()).toStrictEqual([200, 409]);
    await waitForRollout(sim, "prod", "shop", "checkout", "paused at 60 %", isPausedAt(3));
    for (const app of [a, b]) {
      const res = await fetch(`${app.url}/api/audit?rollout=checkout&action=promote`);
      const entries = ((await res.json()) as AuditPage).entries;
      expect(entries.map((e) => e.outcome).sort()).toStrictEqual(["done", "stale"]);
    }
  });

  // The gap itself (target ≤ 15 s, measured 1–2 s) is the benchmark's (`npm run bench -- --only failover`); here it
  // only has to happen, within a bound generous for a loaded machine.
  it("a SIGKILL of the recording replica hands recording to the other: no transition lost, none stored twice", async () => {
    const from = resourceVersions(sim);
    await new Promise((r) => setTimeout(r, 2_000));
    process.kill(a.pid()!, "SIGKILL");
    const killedAt = Date.now();
    const tookOver = await waitFor(
      "replica B to record",
      async () => (await readiness(b.url)).report.recorder?.state === "recording",
      60_000,
      100,
    );
    const gapMs = Date.now() - killedAt;
    console.info(`failover: replica B recorded ${gapMs} ms after the SIGKILL of replica A`);
    expect(tookOver).toBe(true);

    await new Promise((r) => setTimeout(r, 3_000));
    const to = resourceVersions(sim);
    const result = await waitFor("every transition around the failover to be stored", async () => {
      const checked = await checkRecorded(sim, databaseUrl, from, to);
      return checked.lost.length === 0 ? checked : null;
    }).catch(async (err: unknown) => {
      const checked = await checkRecorded(sim, databaseUrl, from, to);
      throw new Error(`${String(err)}; lost ${checked.lost.length} of ${checked.compared}: ${checked.lost.slice(0, 10).join(", ")}`);
    });
    console.info(`failover: compared ${result.compared} transitions, lost ${result.lost.length}, duplicates ${result.duplicates.length}`);
    expect(result.compared).toBeGreaterThanOrEqual(20);
    expect(result.duplicates).toEqual([]);
    const last = new Map<string, string>();
    for (const row of result.rows) {
      const key = `${row.cluster}/${row.namespace}/${row.name}`;
      expect(last.get(key), `unchanged state stored twice for ${key}@${row.resourceVersion}`).not.toBe(sampleSignature(row));
      last.set(key, sampleSignature(row));
    }
    expect((await readiness(b.url)).report.leadership).toMatchObject({ role: "leader" });
  });
});

/** `npm start` with this DATABASE_URL: it must stop before serving, saying what is wrong. */
function npmStart(databaseUrl: string): { status: number | null; output: string } {
  const result = spawnSync("npm", ["start", "--", "-p", "1"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe("a wrong DATABASE_URL", () => {
  it("stops `npm start` with a message naming the problem, never the password", async () => {
    const port = await findFreePort();
    const unreachable = npmStart(`postgresql://rollscope:s3cret-pw@127.0.0.1:${port}/rollscope`);
    expect(unreachable.status).not.toBe(0);
    expect(unreachable.output).toContain(`Can't reach database server at \`127.0.0.1:${port}\``);
    expect(unreachable.output).not.toContain("s3cret-pw");

    const unsupported = npmStart("mysql://rollscope:s3cret-pw@db/rollscope");
    expect(unsupported.status).not.toBe(0);
    expect(unsupported.output).toContain('DATABASE_URL: scheme "mysql:" is not supported; use file:<path> (SQLite) or postgresql://');
    expect(unsupported.output).not.toContain("s3cret-pw");
  });
});

describe("the database going away and coming back (replica B alone)", () => {
  it("makes the server unready meanwhile; the recorder keeps what changed and stores all of it once the database is back", async () => {
    const from = resourceVersions(sim);
    await server.pause();
    const down = await waitFor("readiness to go false", async () => {
      const r = await readiness(b.url);
      return r.status === 503 ? r : null;
    });
    expect(down.report.checks.database.ok).toBe(false);
    // The fleet keeps moving while the database is down; the pages keep answering from the watches.
    await new Promise((r) => setTimeout(r, 4_000));
    expect((await fetch(`${b.url}/api/rollouts`)).status).toBe(200);
    const whileDown = await readiness(b.url);
    expect(whileDown.report.recorder!.pending.samples).toBeGreaterThan(0);
    expect(whileDown.report.leadership).toMatchObject({ role: "disconnected" });
    expect(whileDown.report.recorder).toMatchObject({
      state: "failing",
      lastError: expect.stringContaining("the database is unreachable"),
    });

    await server.resume();
    await waitFor("readiness to come back and the recorder to record", async () => {
      const r = await readiness(b.url);
      return r.status === 200 && r.report.recorder?.state === "recording" ? r : null;
    });
    const to = resourceVersions(sim);
    const result = await waitFor("every transition made during the outage to be stored", async () => {
      const checked = await checkRecorded(sim, databaseUrl, from, to);
      return checked.lost.length === 0 ? checked : null;
    });
    expect(result.compared).toBeGreaterThanOrEqual(5);
    expect(result.duplicates).toEqual([]);
    expect((await readiness(b.url)).report.recorder!.dropped).toEqual({ samples: 0, events: 0 });
  });
});
