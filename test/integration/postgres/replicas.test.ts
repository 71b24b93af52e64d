import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/e2e/support/rollscope-config";
import { readRollout, startActionsSimulation, startCanary, waitForRollout, isPausedAt } from "@/e2e/support/rollout-scenario";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { sampleSignature } from "@/lib/rollouts/recorded-sample";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { waitFor } from "@/test/harness/free-port";
import { checkRecorded, churn, readiness, resourceVersions } from "@/test/harness/replica-fleet";
import { freshDatabaseUrl } from "@/test/harness/test-database";

/*
 * Two replicas of the built app (`next start`) on one PostgreSQL database and the same simulated clusters. One
 * records history; both serve pages, streams and actions; the stale-state guard and the audit log hold across them;
 * a SIGKILL of the recording one hands recording to the other without losing or duplicating a transition.
 */

const CHURNED = ["catalog", "search", "ledger", "payments", "orders"];
let sim: SimulationHandle;
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
  databaseUrl = await freshDatabaseUrl();
  const env = { ROLLSCOPE_CONFIG: config };
  a = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, databaseUrl, env });
  await waitFor("replica A to lead", async () => (await readiness(a.url)).report.recorder?.state === "recording");
  b = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, databaseUrl, env });
  stopChurn = churn(sim, CHURNED);
}, 180_000);

afterAll(async () => {
  stopChurn();
  await a?.stop();
  await b?.stop();
  await sim?.stop();
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

  it("a SIGKILL of the recording replica hands recording to the other within 15 s: no transition lost, none stored twice", async () => {
    const from = resourceVersions(sim);
    await new Promise((r) => setTimeout(r, 2_000));
    process.kill(a.pid()!, "SIGKILL");
    const killedAt = Date.now();
    const tookOver = await waitFor("replica B to record", async () => (await readiness(b.url)).report.recorder?.state === "recording", 30_000, 100);
    const gapMs = Date.now() - killedAt;
    console.info(`failover: replica B recorded ${gapMs} ms after the SIGKILL of replica A`);
    expect(tookOver).toBe(true);
    expect(gapMs).toBeLessThan(15_000);

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
