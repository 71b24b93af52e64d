/**
 * The recorder alone at a given rate of Rollout changes: a stand-in fleet (no simulator, no watches) hands the real
 * Recorder `--rate` state changes a second across `--rollouts` Rollouts for `--seconds`, on a migrated SQLite file
 * (or `DATABASE_URL`). Reports the rate it kept up, transitions lost and how long after the last change every one
 * was stored. The simulator cannot write 2,000 changes a second on a shared 2-core machine; this measures what the
 * recorder and the database can take.
 * Usage: npx tsx --conditions=react-server bench/recorder-rate.ts [--rate 2000] [--seconds 20] [--rollouts 5000]
 * (`react-server`: lib/ is server-only code).
 */
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createDbClient } from "../lib/db/client";
import { createRepositories } from "../lib/db/repositories";
import type { Fleet } from "../lib/fleet/fleet";
import type { FleetDelta } from "../lib/fleet/types";
import type { FleetRollout } from "../lib/rollouts/view-model";
import { Recorder } from "../lib/recorder/recorder";
import { migrateDatabase } from "../test/harness/test-database";
import { formatTable, sleep } from "./measure";

const { values: args } = parseArgs({ options: { rate: { type: "string" }, seconds: { type: "string" }, rollouts: { type: "string" } } });
const RATE = Number(args.rate ?? 2000);
const SECONDS = Number(args.seconds ?? 20);
const ROLLOUTS = Number(args.rollouts ?? 5000);
const TICK_MS = 10;

/** A canary Rollout at step `step` of 8 (weight 10 per step), in the shape the recorder reads. */
function rolloutState(i: number, step: number, resourceVersion: number): FleetRollout {
  const weight = (step % 9) * 10;
  return {
    cluster: `cluster-${i % 20}`,
    namespace: `team-${i % 37}`,
    name: `service-${i}`,
    revision: 2,
    stepProgress: { index: step % 9, total: 8 },
    phase: step % 9 === 8 ? "Healthy" : "Paused",
    message: step % 9 === 8 ? "" : "CanaryPauseStep",
    requestedWeight: { weight },
    appliedWeights: { canary: { weight }, stable: { weight: 100 - weight }, verified: step % 2 === 0 },
    maxTrafficWeight: 100,
    aborted: false,
    pause: step % 9 === 8 ? null : { reason: "CanaryPauseStep" },
    resourceVersion: String(resourceVersion),
    lastChangedAt: new Date().toISOString(),
  } as unknown as FleetRollout;
}

/** Just what the recorder subscribes to: Rollout upserts, no events, nothing listed before. */
function standInFleet(): { fleet: Fleet; emit(rollout: FleetRollout): void } {
  const listeners: Array<(delta: FleetDelta) => void> = [];
  const fleet = {
    clusters: [],
    rollouts: () => [],
    subscribe: (listener: (delta: FleetDelta) => void) => (listeners.push(listener), () => undefined),
    subscribeEvents: () => () => undefined,
  } as unknown as Fleet;
  return { fleet, emit: (rollout) => listeners.forEach((l) => l({ type: "upsert", rollout })) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-recorder-rate-"));
  const url = process.env.DATABASE_URL ?? `file:${path.join(dir, "rollscope.db")}`;
  migrateDatabase(url);
  const db = createDbClient(url);
  const repos = createRepositories(db);
  const recorder = new Recorder({ retentionDays: 30, compactAfterDays: 7 }, repos);
  const { fleet, emit } = standInFleet();
  await recorder.start(fleet);

  const steps = new Array<number>(ROLLOUTS).fill(0);
  let resourceVersion = 1000;
  let emitted = 0;
  let next = 0;
  const started = performance.now();
  // Paced by the clock: a tick that comes late emits what is due, so a blocked event loop shows as a lower rate.
  while (performance.now() - started < SECONDS * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    for (; emitted < due; emitted++) {
      const i = next++ % ROLLOUTS;
      steps[i]++;
      emit(rolloutState(i, steps[i], ++resourceVersion));
    }
    await sleep(TICK_MS);
  }
  const elapsed = (performance.now() - started) / 1000;
  const stoppedAt = performance.now();
  let stored = 0;
  while (performance.now() - stoppedAt < 60_000) {
    stored = await db.rolloutSample.count();
    if (stored >= emitted) break;
    await sleep(50);
  }
  const drainSeconds = (performance.now() - stoppedAt) / 1000;
  await recorder.stop();
  await db.$disconnect();
  const file = url.startsWith("file:") ? url.slice("file:".length) : null;
  const rows = [
    {
      metric: `Recorder alone: changes handed to it per second (asked for ${RATE})`,
      value: (emitted / elapsed).toFixed(0),
      target: "",
      met: null,
    },
    { metric: `Recorder alone: transitions lost (of ${emitted})`, value: String(emitted - stored), target: "0", met: emitted === stored },
    {
      metric: "Recorder alone: every transition stored, after the changes stopped",
      value: emitted === stored ? `${drainSeconds.toFixed(1)} s` : "not within 60 s",
      target: "≤ 5 s",
      met: emitted === stored && drainSeconds <= 5,
    },
    ...(file
      ? [
          {
            metric: "Recorder alone: database file per million samples",
            value: `${(((statSync(file).size / Math.max(1, stored)) * 1e6) / 1024 / 1024).toFixed(0)} MB`,
            target: "",
            met: null,
          },
        ]
      : []),
  ];
  console.log(`\n${formatTable(rows)}\n`);
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
