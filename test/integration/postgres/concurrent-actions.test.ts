import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { startActionsSimulation, startCanary, type ActionRolloutName } from "@/test/harness/rollout-scenario";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { startPostgres, type PostgresServer } from "@/test/harness/postgres";
import { readiness } from "@/test/harness/replica-fleet";

/*
 * Issue 30, item 2: each action held one pooled PostgreSQL connection for its per-Rollout lock and needed a second
 * for its audit queries, so a dozen concurrent actions against a slow cluster exhausted the pool: "internal error"
 * answers and /api/readyz 503. Fifty concurrent promotes over two replicas of the built app, every cluster request
 * taking 3 s: each is answered 200, 409 or 403 with its audit row, none 500, and readiness stays 200 throughout.
 */

const CLUSTERS = ["prod", "legacy"] as const;
const NAMES: ActionRolloutName[] = ["checkout", "cart", "catalog", "search", "ledger", "payments", "orders"];
const ACTIONS = 50;
const CLUSTER_LATENCY_MS = 3_000;

let sim: SimulationHandle;
let server: PostgresServer;
let databaseUrl: string;
const replicas: AppProcess[] = [];

async function csrfOf(app: AppProcess): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/session`);
  const body = (await res.json()) as { csrfToken: string };
  return { token: body.csrfToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  for (const cluster of CLUSTERS) await Promise.all(NAMES.map((name) => startCanary(sim, cluster, name)));
  const config = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: CLUSTERS.map((name) => ({ name })) });
  server = await startPostgres();
  databaseUrl = await server.createDatabase("rollscope");
  for (let i = 0; i < 2; i++)
    replicas.push(
      await startAppProcess({
        kubeconfigPath: sim.kubeconfigPath,
        databaseUrl,
        env: { ROLLSCOPE_CONFIG: config },
        readyPath: "/api/readyz",
      }),
    );
}, 240_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => r.stop()));
  await sim?.stop();
  await server?.stop();
});

describe("concurrent actions on PostgreSQL", () => {
  it(`answers ${ACTIONS} concurrent actions on 2 replicas against a slow cluster with 200/409/403 and an audit row each, readiness 200`, async () => {
    const targets = CLUSTERS.flatMap((cluster) => NAMES.map((name) => ({ cluster, name })));
    // What each user reviewed, read before the cluster slows down.
    const views = new Map<string, RolloutActionsView>();
    for (const { cluster, name } of targets) {
      const res = await fetch(`${replicas[0].url}/api/clusters/${cluster}/rollouts/shop/${name}/actions`);
      views.set(`${cluster}/${name}`, (await res.json()) as RolloutActionsView);
    }
    const csrf = await Promise.all(replicas.map(csrfOf));
    for (const cluster of CLUSTERS) sim.cluster(cluster).apiServer.faults.setLatency(CLUSTER_LATENCY_MS);

    const readinessSeen: number[] = [];
    let acting = true;
    const watchReadiness = (async () => {
      while (acting) {
        for (const replica of replicas) readinessSeen.push((await readiness(replica.url)).status);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    })();
    const answers = await Promise.all(
      Array.from({ length: ACTIONS }, async (_, i) => {
        // Every Rollout is asked for on both replicas.
        const replica = Math.floor(i / targets.length) % 2;
        const { cluster, name } = targets[i % targets.length];
        const app = replicas[replica];
        const res = await fetch(`${app.url}/api/clusters/${cluster}/rollouts/shop/${name}/actions`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            origin: app.url,
            cookie: csrf[replica].cookie,
            "x-csrf-token": csrf[replica].token,
          },
          body: JSON.stringify({ action: "promote", expected: views.get(`${cluster}/${name}`)!.expected }),
        });
        return { status: res.status, requestId: res.headers.get("x-request-id"), body: await res.text() };
      }),
    );
    acting = false;
    await watchReadiness;
    for (const cluster of CLUSTERS) sim.cluster(cluster).apiServer.faults.reset();

    const counts: Record<number, number> = {};
    for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
    console.log(`${ACTIONS} concurrent actions: ${JSON.stringify(counts)}`);
    expect(answers.filter((a) => ![200, 409, 403].includes(a.status))).toEqual([]);
    // Each Rollout promoted once, by whichever attempt came first; the others found it moved on.
    expect(counts[200]).toBe(targets.length);

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ requestId: string; outcome: string }>(`SELECT "requestId", outcome FROM "AuditEntry"`);
      const outcomeOf = new Map(rows.map((r) => [r.requestId, r.outcome]));
      for (const a of answers) {
        expect(a.requestId).toBeTruthy();
        const expected = a.status === 200 ? ["done"] : a.status === 403 ? ["denied"] : ["stale", "conflict"];
        expect(expected, `${a.status} ${a.body}`).toContain(outcomeOf.get(a.requestId!));
      }
    } finally {
      await db.end();
    }
    expect(readinessSeen.length).toBeGreaterThan(0);
    expect(readinessSeen.filter((s) => s !== 200)).toEqual([]);
  }, 300_000);
});
