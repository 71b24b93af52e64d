import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { readRollout, startActionsSimulation, startCanary, type ActionRolloutName } from "@/test/harness/rollout-scenario";
import type { AuditPage } from "@/lib/audit/schema";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { waitFor } from "@/test/harness/free-port";

/*
 * No action without its audit row. The built app (`next start`, mode none) acts on the simulator; the test holds
 * the SQLite database's write lock from another connection (as an operator's sqlite3 shell or a backup would; the
 * tests run as root, so file modes cannot make it read-only), kills the server in the middle of an action, and
 * stops a cluster's API server. Needs a production build (`npx next build`).
 */

let sim: SimulationHandle;
let app: AppProcess;
let db: PrismaClient;
let csrf: { token: string; cookie: string };

const databaseFile = () => app.databaseUrl.replace(/^file:/, "");

async function refreshCsrf(): Promise<void> {
  const res = await fetch(`${app.url}/api/session`);
  const body = (await res.json()) as { csrfToken: string };
  csrf = { token: body.csrfToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
}

async function getView(cluster: string, name: string): Promise<RolloutActionsView> {
  const res = await fetch(`${app.url}/api/clusters/${cluster}/rollouts/shop/${name}/actions`);
  expect(res.status).toBe(200);
  return (await res.json()) as RolloutActionsView;
}

function postAction(cluster: string, name: string, body: unknown): Promise<Response> {
  return fetch(`${app.url}/api/clusters/${cluster}/rollouts/shop/${name}/actions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url, cookie: csrf.cookie, "x-csrf-token": csrf.token },
    body: JSON.stringify(body),
  });
}

async function auditEntries(query: string): Promise<AuditPage["entries"]> {
  const res = await fetch(`${app.url}/api/audit?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as AuditPage).entries;
}

/** The dashboard's cache has caught up when the actions view offers the simulator's current version. */
async function viewAtCurrentVersion(cluster: string, name: ActionRolloutName): Promise<RolloutActionsView> {
  return waitFor(`the ${name} view at the simulator's version`, async () => {
    const view = await getView(cluster, name);
    return view.expected.resourceVersion === readRollout(sim, cluster, "shop", name).metadata.resourceVersion ? view : null;
  });
}

beforeAll(async () => {
  assertFreshBuild();
  sim = await startActionsSimulation();
  await Promise.all([startCanary(sim, "prod", "checkout"), startCanary(sim, "prod", "cart"), startCanary(sim, "prod", "catalog")]);
  const config = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }, { name: "legacy" }] });
  app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, env: { ROLLSCOPE_CONFIG: config } });
  db = createDbClient(app.databaseUrl);
  await refreshCsrf();
}, 120_000);

afterAll(async () => {
  await db?.$disconnect();
  await app?.stop();
  await sim?.stop();
});

describe("the audit log is written before the cluster is changed", () => {
  it("refuses the action, and sends nothing, when the audit log cannot record it", async () => {
    const view = await viewAtCurrentVersion("prod", "checkout");
    const lock = new Database(databaseFile());
    lock.exec("BEGIN EXCLUSIVE");
    let res: Response;
    try {
      res = await postAction("prod", "checkout", { action: "promote", expected: view.expected });
    } finally {
      lock.exec("ROLLBACK");
      lock.close();
    }
    expect(res.status).toBe(503);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.message).toMatch(/audit log/);
    expect(error.message).toMatch(/not sent/);
    const rollout = readRollout(sim, "prod", "shop", "checkout");
    expect(rollout.metadata.resourceVersion).toBe(view.expected.resourceVersion);
    expect(rollout.status?.currentStepIndex).toBe(1);
  });

  it("a crash between intent and outcome leaves a pending entry, which the next start marks interrupted", async () => {
    const view = await viewAtCurrentVersion("prod", "cart");
    const faults = sim.cluster("prod").apiServer.faults;
    // Every answer of the API server now takes 10 s: the action is in flight long enough to crash the server.
    faults.setLatency(10_000);
    void postAction("prod", "cart", { action: "promote", expected: view.expected }).catch(() => undefined);
    const pending = await waitFor("a pending audit entry for the promote of cart", () =>
      db.auditEntry.findFirst({ where: { rollout: "cart", action: "promote", outcome: "pending" } }),
    );
    process.kill(app.pid()!, "SIGKILL");
    faults.reset();
    await waitFor(
      "the server to be gone",
      async () =>
        !(await fetch(`${app.url}/api/session`).then(
          () => true,
          () => false,
        )),
    );
    expect(await db.auditEntry.findUnique({ where: { id: pending.id } })).toMatchObject({ outcome: "pending" });

    // The crash was a while ago: longer than any action can take, so no live server can still be finishing it.
    await db.auditEntry.update({ where: { id: pending.id }, data: { at: new Date(Date.now() - 60 * 60_000) } });
    await app.restart();
    await refreshCsrf();

    const [entry] = await waitFor("the entry to be marked interrupted", async () => {
      const entries = await auditEntries("rollout=cart&action=promote");
      return entries[0]?.outcome === "interrupted" ? entries : null;
    });
    expect(entry).toMatchObject({ id: pending.id, user: "anonymous (kubeconfig identity)", cluster: "prod" });
    expect(entry.message).toMatch(/outcome unknown/);
    expect(entry.before).toMatchObject({ revision: 2, stepIndex: 1 });
  });

  it("keeps an outcome the audit log cannot store and writes it once it can: the answer is the action's, not a 500", async () => {
    const view = await viewAtCurrentVersion("prod", "catalog");
    const sqlite = new Database(databaseFile());
    // Outcomes settle their intent with an UPDATE: refused from here on, while new entries (INSERT) still go in.
    sqlite.exec("CREATE TRIGGER refuse_outcomes BEFORE UPDATE ON AuditEntry BEGIN SELECT RAISE(ABORT, 'outcome writes refused'); END");
    let res: Response;
    try {
      res = await postAction("prod", "catalog", { action: "promote", expected: view.expected });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { outcome: string }).outcome).toBe("done");
      expect(readRollout(sim, "prod", "shop", "catalog").status?.currentStepIndex).toBeGreaterThan(1);
      const entry = await db.auditEntry.findFirst({ where: { requestId: res.headers.get("x-request-id")! } });
      expect(entry?.outcome).toBe("pending");
    } finally {
      sqlite.exec("DROP TRIGGER refuse_outcomes");
      sqlite.close();
    }
    // The kept outcome is written again until it is stored: seconds, not the 5 minutes after which it would be "interrupted".
    const stored = await waitFor(
      "the kept outcome to be stored",
      async () => {
        const entry = await db.auditEntry.findFirst({ where: { requestId: res.headers.get("x-request-id")! } });
        return entry?.outcome === "done" ? entry : null;
      },
      60_000,
      250,
    );
    expect(stored.after).not.toBeNull();
  });

  it("audits an action on an unreachable cluster as an error, not as denied", async () => {
    const legacy = sim.cluster("legacy").apiServer;
    const expected = { resourceVersion: readRollout(sim, "legacy", "shop", "ledger").metadata.resourceVersion };
    await legacy.stop();
    try {
      const res = await postAction("legacy", "ledger", { action: "pause", expected });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("upstream_unavailable");
    } finally {
      await legacy.start();
    }
    const entries = await auditEntries("cluster=legacy&rollout=ledger");
    expect(entries.map((e) => e.outcome)).toStrictEqual(["error"]);
    expect(entries[0].message).toMatch(/cluster legacy/);
  });
});
