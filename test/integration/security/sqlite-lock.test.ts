import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/sim/rollscope-config";
import { startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { databaseFile } from "@/test/harness/failing-commits";
import { waitFor } from "@/test/harness/free-port";
import { assertFreshBuild } from "@/test/harness/app-process";
import { lostTransitions, readStoredStates, resourceVersions } from "@/test/harness/recorded-transitions";

/*
 * Another process holding the database (an operator's sqlite3 shell in BEGIN EXCLUSIVE, a backup) must not freeze
 * the server: pages and the live stream keep answering while it holds the lock, and the recorder stores what
 * changed meanwhile once it lets go. Not a latency test: the lock is held (at least LOCK_MS, so the recorder has to
 * wait for it) until every check has its answer, so a server that froze on the lock would never answer while it is
 * held; the bound on each answer only ends such a test, and is generous for a machine under load.
 */

const LOCK_MS = 6_000;
const ANSWER_MS = 30_000;
/** Stream chunks to see while the lock is held: the simulated fleet moves every second or so. */
const CHUNKS_DURING_LOCK = 3;
const DETAIL = "/api/clusters/prod-eu/rollouts/shop/checkout";

let sim: SimulationHandle;
let app: AppProcess;

beforeAll(async () => {
  assertFreshBuild();
  sim = await startSimulation({ scenario: "demo", timeScale: 60, seed: 31 });
  const configPath = path.join(path.dirname(sim.kubeconfigPath), "rollscope.yaml");
  writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters);
  app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, env: { ROLLSCOPE_CONFIG: configPath } });
  await waitFor("the recorder to store the fleet", async () => readStoredStates(app.databaseUrl).length > 0, 30_000, 250);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await sim?.stop();
});

/** GETs a path and fails unless a 200 answer arrives within ANSWER_MS. */
async function answers(pathname: string): Promise<void> {
  const answer = await fetch(`${app.url}${pathname}`, { signal: AbortSignal.timeout(ANSWER_MS) })
    .then(async (res) => ({ status: res.status, body: await res.text() }))
    .catch((err: unknown) => {
      throw new Error(`${pathname} did not answer within ${ANSWER_MS} ms while the lock was held: ${String(err)}`);
    });
  expect(answer.status, `${pathname}: ${answer.body.slice(0, 300)}`).toBe(200);
}

/** Reads the live stream, noting when each chunk arrived, until `signal` aborts. */
async function readStream(arrivals: number[], signal: AbortSignal): Promise<void> {
  const res = await fetch(`${app.url}/api/stream`, { signal });
  const reader = res.body!.getReader();
  try {
    for (;;) {
      const { done } = await reader.read();
      if (done) return;
      arrivals.push(Date.now());
    }
  } catch {
    /* aborted at the end */
  }
}

describe("a lock held on the database by another process", () => {
  it("leaves pages and the live stream answering, and the recorder catches up afterwards", async () => {
    const arrivals: number[] = [];
    const stopStream = new AbortController();
    const streaming = readStream(arrivals, stopStream.signal);
    await waitFor("the stream's snapshot", async () => arrivals.length > 0, 30_000);

    const from = resourceVersions(sim);
    const shell = new Database(databaseFile(app.databaseUrl), { timeout: 10_000 });
    shell.prepare("BEGIN EXCLUSIVE").run();
    const lockedAt = Date.now();
    let rounds = 0;
    let chunksDuringLock = 0;
    try {
      while (Date.now() - lockedAt < LOCK_MS || rounds < 2) {
        await answers("/api/rollouts");
        await answers(DETAIL);
        await answers(`${DETAIL}/history?range=1h`);
        rounds++;
      }
      await waitFor(
        `${CHUNKS_DURING_LOCK} live stream chunks while the lock is held`,
        async () => (chunksDuringLock = arrivals.filter((t) => t > lockedAt).length) >= CHUNKS_DURING_LOCK,
        ANSWER_MS,
      );
    } finally {
      shell.prepare("COMMIT").run();
      shell.close();
    }
    const to = resourceVersions(sim);
    stopStream.abort();
    await streaming;

    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(chunksDuringLock).toBeGreaterThanOrEqual(CHUNKS_DURING_LOCK);

    const caughtUp = await waitFor("the recorder to store every transition made during the lock", async () => {
      const result = lostTransitions(sim, app.databaseUrl, from, to);
      return result.lost.length === 0 ? result : null;
    });
    expect(caughtUp.compared).toBeGreaterThanOrEqual(5);
  });
});
