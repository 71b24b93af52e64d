import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/e2e/support/rollscope-config";
import { startActionsSimulation } from "@/e2e/support/rollout-scenario";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { findFreePort, waitFor } from "@/test/harness/free-port";
import { startPostgres, type PostgresServer } from "@/test/harness/postgres";
import { checkRecorded, churn, readiness, resourceVersions } from "@/test/harness/replica-fleet";

/*
 * The database is PostgreSQL on another host: it can be wrong in the configuration, and it can go away and come
 * back. The built app (`next start`) on a throw-away server of its own, which the test stops and starts.
 */

const repoRoot = path.resolve(import.meta.dirname, "../../..");
let sim: SimulationHandle;
let server: PostgresServer;
let app: AppProcess;
let stopChurn = () => {};

beforeAll(async () => {
  assertFreshBuild();
  server = await startPostgres();
  sim = await startActionsSimulation();
  const config = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }, { name: "legacy" }] });
  app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, databaseUrl: await server.createDatabase("rollscope"), env: { ROLLSCOPE_CONFIG: config } });
  await waitFor("the recorder to record", async () => (await readiness(app.url)).report.recorder?.state === "recording");
  stopChurn = churn(sim, ["checkout", "cart", "catalog", "search"]);
}, 180_000);

afterAll(async () => {
  stopChurn();
  await app?.stop();
  await sim?.stop();
  await server?.stop();
});

/** `npm start` with this DATABASE_URL: it must stop before serving, saying what is wrong. */
function npmStart(databaseUrl: string): { status: number | null; output: string } {
  const result = spawnSync("npm", ["start", "--", "-p", "1"], { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8", timeout: 60_000 });
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

describe("the database going away and coming back", () => {
  it("makes the server unready meanwhile; the recorder keeps what changed and stores all of it once the database is back", async () => {
    const from = resourceVersions(sim);
    await server.pause();
    const down = await waitFor("readiness to go false", async () => {
      const r = await readiness(app.url);
      return r.status === 503 ? r : null;
    });
    expect(down.report.checks.database.ok).toBe(false);
    // The fleet keeps moving while the database is down; the pages keep answering from the watches.
    await new Promise((r) => setTimeout(r, 4_000));
    expect((await fetch(`${app.url}/api/rollouts`)).status).toBe(200);
    const whileDown = await readiness(app.url);
    expect(whileDown.report.recorder!.pending.samples).toBeGreaterThan(0);
    expect(whileDown.report.leadership).toMatchObject({ role: "disconnected" });
    expect(whileDown.report.recorder).toMatchObject({ state: "failing", lastError: expect.stringContaining("the database is unreachable") });

    await server.resume();
    await waitFor("readiness to come back and the recorder to record", async () => {
      const r = await readiness(app.url);
      return r.status === 200 && r.report.recorder?.state === "recording" ? r : null;
    });
    const to = resourceVersions(sim);
    const result = await waitFor("every transition made during the outage to be stored", async () => {
      const checked = await checkRecorded(sim, app.databaseUrl, from, to);
      return checked.lost.length === 0 ? checked : null;
    });
    expect(result.compared).toBeGreaterThanOrEqual(5);
    expect(result.duplicates).toEqual([]);
    expect((await readiness(app.url)).report.recorder!.dropped).toEqual({ samples: 0, events: 0 });
  });
});
