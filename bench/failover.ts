/**
 * The replica failover gap: two Rollscope processes (the production build) on one throw-away PostgreSQL and the same
 * simulated clusters, the fleet kept moving, the recording replica killed with SIGKILL. Measured as the replica
 * integration test (test/integration/postgres/replicas.test.ts) checks it, with the same harness.
 */
import pg from "pg";
import type { SimulationHandle } from "../sim/cluster";
import { startActionsSimulation } from "../test/harness/rollout-scenario";
import { writeRollscopeConfig } from "../test/harness/rollscope-config";
import { sampleSignature } from "../lib/rollouts/recorded-sample";
import { startAppProcess, type AppProcess } from "../test/harness/app-process";
import { waitFor } from "../test/harness/free-port";
import { postgresAvailable, startPostgres } from "../test/harness/postgres";
import { STORED_STATES_SQL, type StoredState } from "../test/harness/lost-transitions";
import { compareRecorded, churn, readiness, resourceVersions } from "../test/harness/replica-fleet";
import { sleep, type Row } from "./measure";

const CHURNED = ["catalog", "search", "ledger", "payments", "orders"];
/** How long the standby may take before the gap is reported as not closed. */
const TAKEOVER_LIMIT_MS = 60_000;

type SampleRow = StoredState & Parameters<typeof sampleSignature>[0];

/** Every stored sample, read with plain `pg` (the app's Prisma client is server-only), compared as the test does. */
async function checkRecorded(sim: SimulationHandle, databaseUrl: string, from: Map<string, number>, to: Map<string, number>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<SampleRow>(STORED_STATES_SQL);
    return compareRecorded(sim, rows, from, to);
  } finally {
    await client.end();
  }
}

export type FailoverResult = { skipped: string } | { gapMs: number | null; compared: number; lost: number; duplicates: number };

/** Samples stored twice: the same resourceVersion again, or a Rollout's unchanged state stored again. */
function countDuplicates(checked: { rows: readonly SampleRow[]; duplicates: readonly string[] }): number {
  const last = new Map<string, string>();
  let repeats = 0;
  for (const row of checked.rows) {
    const key = `${row.cluster}/${row.namespace}/${row.name}`;
    if (last.get(key) === sampleSignature(row)) repeats++;
    last.set(key, sampleSignature(row));
  }
  return checked.duplicates.length + repeats;
}

/** Polls the standby's readiness until it reports recording; the time from the kill, or null when it never does. */
async function takeoverGap(standby: AppProcess, killedAt: number): Promise<number | null> {
  return waitFor(
    "the standby to record",
    async () => (await readiness(standby.url)).report.recorder?.state === "recording",
    TAKEOVER_LIMIT_MS,
    100,
  )
    .then(() => Date.now() - killedAt)
    .catch(() => null);
}

export async function measureFailover(): Promise<FailoverResult> {
  if (!postgresAvailable()) return { skipped: "PostgreSQL is not installed (scripts/ensure-system-deps.sh installs it)" };
  const sim = await startActionsSimulation();
  const server = await startPostgres();
  const apps: AppProcess[] = [];
  let stopChurn = () => {};
  try {
    const databaseUrl = await server.createDatabase("rollscope");
    const config = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }, { name: "legacy" }] });
    const start = () => startAppProcess({ kubeconfigPath: sim.kubeconfigPath, databaseUrl, env: { ROLLSCOPE_CONFIG: config } });
    const leader = await start();
    apps.push(leader);
    await waitFor("the first replica to lead", async () => (await readiness(leader.url)).report.recorder?.state === "recording", 60_000);
    const standby = await start();
    apps.push(standby);
    stopChurn = churn(sim, CHURNED);

    const from = resourceVersions(sim);
    await sleep(2_000);
    process.kill(leader.pid()!, "SIGKILL");
    const gapMs = await takeoverGap(standby, Date.now());
    await sleep(3_000);
    const to = resourceVersions(sim);
    // Lost means still missing 30 s later, not stored a little late by a busy machine.
    const checked = await waitFor("every transition around the failover to be stored", async () => {
      const c = await checkRecorded(sim, databaseUrl, from, to);
      return c.lost.length === 0 ? c : null;
    }).catch(() => checkRecorded(sim, databaseUrl, from, to));
    return { gapMs, compared: checked.compared, lost: checked.lost.length, duplicates: countDuplicates(checked) };
  } finally {
    stopChurn();
    for (const app of apps) await app.stop();
    await sim.stop();
    await server.stop();
  }
}

export function failoverRows(result: FailoverResult): Row[] {
  if ("skipped" in result) return [{ metric: "Failover: not measured", value: result.skipped, target: "", met: null }];
  const gap = result.gapMs === null ? `none within ${TAKEOVER_LIMIT_MS / 1000} s` : `${(result.gapMs / 1000).toFixed(1)} s`;
  return [
    {
      metric: "Failover: SIGKILL of the recording replica → the standby recording",
      value: gap,
      target: "≤ 15 s",
      met: result.gapMs !== null && result.gapMs <= 15_000,
    },
    {
      metric: `Failover: transitions lost (of ${result.compared} around the kill)`,
      value: String(result.lost),
      target: "0",
      met: result.lost === 0,
    },
    { metric: "Failover: duplicate samples", value: String(result.duplicates), target: "0", met: result.duplicates === 0 },
  ];
}
