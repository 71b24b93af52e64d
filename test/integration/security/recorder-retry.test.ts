import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadinessReport, RecorderStatus } from "@/lib/contracts/readiness";
import { createDbClient } from "@/lib/db/client";
import { createRepositories } from "@/lib/db/repositories";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import { batchWrites } from "@/lib/recorder/batch-writes";
import type { RolloutSampleInput } from "@/lib/rollouts/recorded-sample";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/sim/rollscope-config";
import { startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { databaseFile, installCommitFailure, type CommitFailure } from "@/test/harness/failing-commits";
import { waitFor } from "@/test/harness/free-port";
import { assertFreshBuild } from "@/test/harness/app-process";
import { STORED_STATES_SQL, type StoredState } from "@/test/harness/lost-transitions";
import { lostTransitions, readStoredStates, resourceVersions } from "@/test/harness/recorded-transitions";
import { createTestDatabase } from "@/test/harness/test-database";

/*
 * A write error must not stop the history for good. On a full disk SQLite fails at COMMIT, when it writes the pages
 * out; the test makes COMMIT fail the same way (see installCommitFailure) and then lets writes succeed again.
 */

const sample = (name: string): RolloutSampleInput => ({
  cluster: "prod",
  namespace: "shop",
  name,
  at: new Date(),
  revision: "2",
  stepIndex: 1,
  totalSteps: 4,
  phase: "Paused",
  message: null,
  requestedWeight: 20,
  canaryWeight: 20,
  stableWeight: 80,
  verified: true,
  maxWeight: 100,
  aborted: false,
  paused: true,
  resourceVersion: "41",
});

const event = (uid: string): RolloutEventRow => ({
  cluster: "prod",
  namespace: "shop",
  rollout: "checkout",
  rolloutUid: "checkout-uid",
  eventUid: uid,
  type: "Normal",
  reason: "RolloutStepCompleted",
  message: "Rollout step 1/4 completed",
  count: 1,
  firstAt: new Date(),
  lastAt: new Date(),
});

/** Settles with the promise, or fails once `ms` pass: a hung write must fail the test, not time it out silently. */
function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms)),
  ]);
}

describe("the database client after a COMMIT failed", () => {
  it("rolls the failed transaction back and takes the next writes, durably", async () => {
    const url = await createTestDatabase();
    const db = createDbClient(url);
    const repos = createRepositories(db);
    const failure = installCommitFailure(url);
    const reader = new Database(databaseFile(url), { readonly: true });
    try {
      failure.start();
      await expect(
        within(10_000, "the failing transaction", repos.transaction(batchWrites(repos, [sample("lost")], [event("uid-lost")]))),
      ).rejects.toThrow();
      failure.stop();

      await within(10_000, "the next transaction", repos.transaction(batchWrites(repos, [sample("kept")], [event("uid-kept")])));
      await within(10_000, "a write on its own", repos.transaction([repos.rolloutEvents.upsertMany([event("uid-alone")])]));
      // Read through another connection: what only an open, never-committed transaction holds is not there.
      expect((reader.prepare(STORED_STATES_SQL).all() as StoredState[]).map((row) => row.name)).toEqual(["kept"]);
      expect(reader.prepare(`SELECT "eventUid" FROM "RolloutEvent" ORDER BY "eventUid"`).all()).toEqual([
        { eventUid: "uid-alone" },
        { eventUid: "uid-kept" },
      ]);
    } finally {
      reader.close();
      failure.close();
      await db.$disconnect();
    }
  });
});

describe("the recorder of the running app when writes fail", () => {
  let sim: SimulationHandle;
  let app: AppProcess;
  let failure: CommitFailure;

  const readiness = async (): Promise<ReadinessReport & { recorder: RecorderStatus }> => {
    const report = (await (await fetch(`${app.url}/api/readyz`)).json()) as ReadinessReport;
    if (!report.recorder) throw new Error(`no recorder status: ${JSON.stringify(report.checks)}`);
    return { ...report, recorder: report.recorder };
  };

  beforeAll(async () => {
    assertFreshBuild();
    sim = await startSimulation({ scenario: "demo", timeScale: 60, seed: 23 });
    const configPath = path.join(path.dirname(sim.kubeconfigPath), "rollscope.yaml");
    writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters);
    // Ready as a load balancer sees it (after the start-up warm-up): the test asserts the server stays ready.
    app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, env: { ROLLSCOPE_CONFIG: configPath }, readyPath: "/api/readyz" });
    await waitFor("the recorder to store the fleet", async () => readStoredStates(app.databaseUrl).length > 0, 30_000, 250);
    failure = installCommitFailure(app.databaseUrl);
  }, 120_000);

  afterAll(async () => {
    failure?.close();
    await app?.stop();
    await sim?.stop();
  });

  it("reports failing while writes fail, then catches up with every transition and reports recording", async () => {
    expect((await readiness()).recorder.state).toBe("recording");

    const from = resourceVersions(sim);
    failure.start();
    const failing = await waitFor("the recorder to report failing", async () => {
      const report = await readiness();
      return report.recorder.state === "failing" ? report : null;
    });
    // Failing writes do not make the server unready: it still serves the fleet and the stored history.
    expect(failing.ready).toBe(true);
    expect(failing.recorder.lastError).toBeTruthy();
    await waitFor("transitions to pile up while writes fail", async () => {
      await new Promise((r) => setTimeout(r, 3_000));
      const pending = (await readiness()).recorder.pending;
      return lostTransitions(sim, app.databaseUrl, from, resourceVersions(sim)).lost.length >= 5 && pending.samples >= 5;
    });

    failure.stop();
    const to = resourceVersions(sim);
    const caughtUp = await waitFor("the recorder to store every transition made while writes failed", async () => {
      const result = lostTransitions(sim, app.databaseUrl, from, to);
      return result.lost.length === 0 ? result : null;
    });
    expect(caughtUp.compared).toBeGreaterThanOrEqual(5);
    const recovered = await waitFor("the recorder to report recording", async () => {
      const report = await readiness();
      return report.recorder.state === "recording" ? report : null;
    });
    expect(recovered.recorder.dropped).toEqual({ samples: 0, events: 0 });
  });
});
