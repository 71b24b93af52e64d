import { statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRepositories, type Repositories } from "@/lib/db/repositories";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import { sqliteFileOf } from "@/lib/db/database-url";
import { startSqliteCheckpointer } from "@/lib/db/sqlite-checkpointer";
import { batchWrites } from "@/lib/recorder/batch-writes";
import { waitFor } from "../harness/free-port";
import { createTestDatabase } from "../harness/test-database";

const event = (i: number): RolloutEventRow => ({
  cluster: "prod",
  namespace: `team-${i % 40}`,
  rollout: `app-${i % 500}`,
  rolloutUid: `uid-${i % 500}`,
  eventUid: `event-${i}`,
  type: i % 7 === 0 ? "Warning" : "Normal",
  reason: "RolloutStepCompleted",
  message: `Rollout step ${i % 8}/8 completed; ${"the canary took its share of the traffic as asked ".repeat(3)}`,
  count: 1,
  firstAt: new Date(1_800_000_000_000 + i * 1000),
  lastAt: new Date(1_800_000_000_000 + i * 1000),
});

/** One setting of the server's own connection, as SQLite reports it. */
async function setting(db: PrismaClient, name: string): Promise<number> {
  const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(`PRAGMA ${name}`);
  return Number(Object.values(rows[0])[0]);
}

describe("SQLite's checkpoints, off the event loop", () => {
  let db: PrismaClient;
  let repos: Repositories;
  let file: string;

  beforeAll(async () => {
    const url = await createTestDatabase();
    file = sqliteFileOf(url)!;
    db = createDbClient(url);
    repos = createRepositories(db);
  });
  afterAll(async () => {
    await db.$disconnect();
  });

  it("never checkpoints on the server's connection: a thread of its own copies the log into the database file", async () => {
    await db.$queryRawUnsafe("SELECT 1");
    // The server's connection neither checkpoints nor syncs on commit; a failed checkpointer would turn the first back on.
    expect(await setting(db, "wal_autocheckpoint")).toBe(0);
    expect(await setting(db, "synchronous")).toBe(1);
    expect(await setting(db, "temp_store")).toBe(2);
    const before = statSync(file).size;
    // About 2,000 pages of events: past the 1,000 pages at which the connection itself would have checkpointed.
    for (let batch = 0; batch < 16; batch++) {
      const events = Array.from({ length: 500 }, (_, i) => event(batch * 500 + i));
      await repos.transaction(batchWrites(repos, [], events));
    }
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
    // Within a few of its one-second turns, the checkpointer has copied the log's pages into the database file.
    await waitFor("the database file to hold the events", async () => statSync(file).size > before + 4 * 1024 * 1024, 30_000, 100);
    expect(await setting(db, "wal_autocheckpoint")).toBe(0);
    expect((await repos.rolloutEvents.listBetween(new Date(0), new Date(2_000_000_000_000), 10_000)).length).toBe(8_000);
  });

  it("reports a checkpointer whose thread cannot open the database, so the caller can checkpoint itself", async () => {
    const failures: unknown[] = [];
    const checkpointer = startSqliteCheckpointer(`${file}.missing`, (err) => failures.push(err));
    try {
      await waitFor("the failure to be reported", async () => failures.length > 0, 30_000, 50);
      expect(String(failures[0])).toMatch(/unable to open database|does not exist|SQLITE_CANTOPEN/i);
    } finally {
      await checkpointer.stop();
    }
  });
});
