import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRepositories, type Repositories } from "@/lib/db/repositories";
import type { RolloutEventRow as EventRow } from "@/lib/db/rollout-events";
import { batchWrites } from "@/lib/recorder/batch-writes";
import { Recorder } from "@/lib/recorder/recorder";
import type { RolloutSampleInput } from "@/lib/rollouts/recorded-sample";
import { heapKeptBy } from "../harness/kept-heap";
import { STORED_STATES_SQL, type StoredState } from "../harness/lost-transitions";
import { createTestDatabase, freshDatabaseUrl, testDatabaseDialect } from "../harness/test-database";

const sample = (name: string, at: Date, over: Partial<RolloutSampleInput> = {}): RolloutSampleInput => ({
  cluster: "prod",
  namespace: "shop",
  name,
  at,
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
  ...over,
});

const event = (uid: string, lastAt: Date, count = 1): EventRow => ({
  cluster: "prod",
  namespace: "shop",
  rollout: "checkout",
  rolloutUid: "checkout-uid",
  eventUid: uid,
  type: "Normal",
  reason: "RolloutStepCompleted",
  message: `Rollout step 1/4 completed (count ${count})`,
  count,
  firstAt: new Date("2026-11-01T10:00:00Z"),
  lastAt,
});

let db: PrismaClient;
let repos: Repositories;

/** The stored states of one Rollout of cluster prod, namespace shop, in the order they were written. */
async function storedStates(name: string): Promise<StoredState[]> {
  return (await db.$queryRawUnsafe<StoredState[]>(STORED_STATES_SQL)).filter(
    (r) => r.cluster === "prod" && r.namespace === "shop" && r.name === name,
  );
}

beforeAll(async () => {
  await createTestDatabase();
  db = createDbClient();
  repos = createRepositories(db);
});

describe("recorder batch writes", () => {
  it("store rows the readers give back with the same types and values", async () => {
    const at = new Date("2026-11-30T03:55:04.123Z");
    await repos.transaction(
      batchWrites(repos, [sample("checkout", at), sample("cart", at, { verified: null, aborted: true, message: "aborted" })], []),
    );
    const read = async (name: string, from?: Date) =>
      (await repos.rolloutSamples.listForRollout({ cluster: "prod", namespace: "shop", name }, from)).map((r) => ({
        at: r.at,
        verified: r.verified,
        aborted: r.aborted,
        paused: r.paused,
        canary: r.canaryWeight,
        message: r.message,
      }));
    expect(await read("cart")).toEqual([{ at, verified: null, aborted: true, paused: true, canary: 20, message: "aborted" }]);
    expect(await read("checkout")).toEqual([{ at, verified: true, aborted: false, paused: true, canary: 20, message: null }]);
    // A range starting at the sample holds it; one starting a millisecond later holds it as the state in force.
    expect(await read("checkout", at)).toHaveLength(1);
    expect(await read("checkout", new Date(at.getTime() + 1))).toEqual(await read("checkout"));
  });

  it("give several Rollouts' applied weights in one read: each one's since a time, after the one in force then", async () => {
    const t = Date.parse("2026-11-30T05:00:00Z");
    const at = (seconds: number) => new Date(t + seconds * 1000);
    let version = 5000;
    const weight = (name: string, seconds: number, canaryWeight: number | null, over: Partial<RolloutSampleInput> = {}) =>
      sample(name, at(seconds), { canaryWeight, resourceVersion: String(version++), ...over });
    await repos.transaction(
      batchWrites(
        repos,
        [
          weight("w-a", -600, 0),
          weight("w-a", -300, 10),
          weight("w-a", 30, 20),
          weight("w-a", 60, 40),
          weight("w-a", 0, 15),
          weight("w-b", -60, 50, { maxWeight: 200 }),
          weight("w-c", 10, null),
          // Two states the same millisecond: the one written last is the one in force.
          weight("w-d", -100, 30),
          weight("w-d", -100, 35),
          // Same name, other namespace and cluster: not the Rollouts asked for.
          weight("w-a", 45, 90, { namespace: "other" }),
          weight("w-a", 50, 90, { cluster: "staging" }),
        ],
        [],
      ),
    );
    const read = await repos.rolloutSamples.listWeightsSince(
      "prod",
      [
        { namespace: "shop", name: "w-a" },
        { namespace: "shop", name: "w-b" },
        { namespace: "shop", name: "w-c" },
        { namespace: "shop", name: "w-d" },
        { namespace: "shop", name: "never-recorded" },
      ],
      at(0),
    );
    expect(Object.fromEntries(read)).toEqual({
      "shop/w-a": [
        { atMs: t - 300_000, canaryWeight: 10, maxWeight: 100 },
        // A sample at `from` itself is one of those since.
        { atMs: t, canaryWeight: 15, maxWeight: 100 },
        { atMs: t + 30_000, canaryWeight: 20, maxWeight: 100 },
        { atMs: t + 60_000, canaryWeight: 40, maxWeight: 100 },
      ],
      "shop/w-b": [{ atMs: t - 60_000, canaryWeight: 50, maxWeight: 200 }],
      "shop/w-c": [{ atMs: t + 10_000, canaryWeight: null, maxWeight: 100 }],
      "shop/w-d": [{ atMs: t - 100_000, canaryWeight: 35, maxWeight: 100 }],
    });
    expect(await repos.rolloutSamples.listWeightsSince("prod", [], at(0))).toEqual(new Map());
  });

  it("keep a long message to its first 600 characters", async () => {
    const long = "é".repeat(3_000);
    await repos.transaction(batchWrites(repos, [sample("long-message", new Date("2026-11-30T03:56:00Z"), { message: long })], []));
    const [stored] = await repos.rolloutSamples.listForRollout({ cluster: "prod", namespace: "shop", name: "long-message" });
    expect(stored.message).toBe("é".repeat(600));
  });

  it("keep the order of a large flush", async () => {
    const base = Date.parse("2026-11-30T04:00:00Z");
    const many = Array.from({ length: 1_234 }, (_, i) => sample("bulk", new Date(base + i * 1000), { resourceVersion: String(1000 + i) }));
    await repos.transaction(batchWrites(repos, many, []));
    const rows = await storedStates("bulk");
    expect(rows).toHaveLength(1_234);
    expect(rows.map((r) => r.resourceVersion)).toEqual(many.map((s) => s.resourceVersion));
  });

  it("store a state once: a second write of the same Rollout and resourceVersion (another replica's) is skipped", async () => {
    const at = new Date("2026-11-30T04:30:00Z");
    const states = [
      sample("twice", at, { resourceVersion: "71" }),
      sample("twice", new Date(at.getTime() + 1000), { resourceVersion: "72", stepIndex: 2 }),
    ];
    await repos.transaction(batchWrites(repos, states.slice(0, 1), []));
    await repos.transaction(batchWrites(repos, states, []));
    const rows = await storedStates("twice");
    expect(rows.map((r) => [r.resourceVersion, r.stepIndex])).toEqual([
      ["71", 1],
      ["72", 2],
    ]);
  });

  it("update an event seen again (count, last time, message) instead of storing it twice", async () => {
    await repos.transaction(batchWrites(repos, [], [event("uid-1", new Date("2026-11-30T05:00:00Z"))]));
    await repos.transaction(
      batchWrites(repos, [], [event("uid-1", new Date("2026-11-30T05:10:00Z"), 3), event("uid-2", new Date("2026-11-30T05:10:00Z"))]),
    );
    const rows = await db.rolloutEvent.findMany({ where: { eventUid: { in: ["uid-1", "uid-2"] } }, orderBy: { eventUid: "asc" } });
    expect(rows.map((r) => [r.eventUid, r.count, r.lastAt.toISOString(), r.message])).toEqual([
      ["uid-1", 3, "2026-11-30T05:10:00.000Z", "Rollout step 1/4 completed (count 3)"],
      ["uid-2", 1, "2026-11-30T05:10:00.000Z", "Rollout step 1/4 completed (count 1)"],
    ]);
  });

  it("give a Rollout the events of its own object: never those of a deleted predecessor of the same name", async () => {
    const at = new Date("2026-11-30T06:00:00Z");
    const ofObject = (eventUid: string, rolloutUid: string | null): EventRow => ({ ...event(eventUid, at), rollout: "reborn", rolloutUid });
    await repos.transaction(
      batchWrites(repos, [], [ofObject("reborn-old", "uid-before"), ofObject("reborn-new", "uid-after"), ofObject("reborn-unsaid", null)]),
    );
    const listed = async (uid: string | null) =>
      (await repos.rolloutEvents.listForRollout({ cluster: "prod", namespace: "shop", name: "reborn", uid }, 10))
        .map((e) => e.eventUid)
        .sort();
    expect(await listed("uid-after")).toEqual(["reborn-new", "reborn-unsaid"]);
    expect(await listed("uid-before")).toEqual(["reborn-old", "reborn-unsaid"]);
    expect(await listed(null)).toEqual(["reborn-new", "reborn-old", "reborn-unsaid"]);
  });

  it("are pruned by the retention like any other row", async () => {
    await repos.transaction(
      batchWrites(repos, [sample("old", new Date("2026-01-01T00:00:00Z"))], [event("uid-old", new Date("2026-01-01T00:00:00Z"))]),
    );
    const pruned = await new Recorder({ retentionDays: 30 }, repos).prune(new Date("2026-11-30T12:00:00Z"));
    expect(pruned).toEqual({ samples: 1, events: 1, compacted: 0 });
    expect(await storedStates("old")).toEqual([]);
    expect(await db.rolloutEvent.count({ where: { eventUid: "uid-2" } })).toBe(1);
  });

  it("leave nothing of their rows in the server's memory once written", async () => {
    // Prisma keeps the arguments of its last 100 debug calls (each raw query's one JSON parameter of rows included)
    // unless the database client forgets them: 16 MB at 5,000 Rollouts. Rounds of a scrape's rows and a recorder
    // batch, about 4 MB of parameters each:
    const at = Date.parse("2026-11-30T06:00:00Z");
    const rows = 1_000;
    const write = async (token: string, padding: string) => {
      const scraped = Array.from({ length: rows }, (_, i) => ({
        metric: "rollout_events_total",
        labels: JSON.stringify({ name: `${token}-${i}`, padding }),
        atMs: at,
        value: i,
      }));
      await repos.metricSamples.saveScrape("prod", at, { ok: true, error: null, series: rows, durationMs: 1 }, scraped);
      const samples = Array.from({ length: rows }, (_, i) => sample(`${token}-${i}`, new Date(at), { message: `${i} ${padding}` }));
      await repos.transaction(batchWrites(repos, samples, []));
    };
    await write("warm-up", ""); // compiles the code and the statements first: they stay, the rows must not
    const rounds = 6;
    const kept = await heapKeptBy(async () => {
      for (let round = 0; round < rounds; round++) await write(`kept-row-${round}`, "x".repeat(2_000));
    });
    expect(await db.metricSample.count({ where: { labels: { contains: "kept-row-" } } })).toBe(rounds * rows);
    expect(await db.rolloutKey.count({ where: { name: { startsWith: "kept-row-" } } })).toBe(rounds * rows);
    // A request's own objects may outlive it until the next one (about one round); kept histories hold every round.
    const roundBytes = 2 * rows * 2_000;
    expect(kept).toBeLessThan(2 * roundBytes);
  });
});

describe("compaction of old history", () => {
  const now = new Date("2026-11-30T12:00:00Z");
  const daysAgo = (days: number, minutes = 0) => new Date(now.getTime() - days * 86_400_000 + minutes * 60_000);
  const stored = ({ cluster: _c, namespace: _n, name: _name, resourceVersion: _rv, ...state }: RolloutSampleInput) => state;
  const read = (name: string) => repos.rolloutSamples.listForRollout({ cluster: "prod", namespace: "shop", name });

  it("keeps beyond compactAfterDays one sample per step, phase, revision, abort or pause change, and the state in force at the cutoff", async () => {
    const step0 = { stepIndex: 0, paused: false, requestedWeight: 0, canaryWeight: 0, stableWeight: 100 };
    const thin = [
      sample("thin", daysAgo(10, 0), { resourceVersion: "1", ...step0 }),
      sample("thin", daysAgo(10, 1), { resourceVersion: "2", ...step0, requestedWeight: 10, canaryWeight: 10, stableWeight: 90 }),
      sample("thin", daysAgo(10, 2), {
        resourceVersion: "3",
        ...step0,
        requestedWeight: 10,
        canaryWeight: 10,
        stableWeight: 90,
        verified: false,
      }),
      sample("thin", daysAgo(10, 3), { resourceVersion: "4", stepIndex: 1, message: "CanaryPauseStep" }),
      sample("thin", daysAgo(10, 4), { resourceVersion: "5", stepIndex: 1, message: "CanaryPauseStep", canaryWeight: 30 }),
      sample("thin", daysAgo(9), {
        resourceVersion: "6",
        stepIndex: 1,
        aborted: true,
        phase: "Degraded",
        canaryWeight: 0,
        stableWeight: 100,
      }),
      sample("thin", daysAgo(8), {
        resourceVersion: "7",
        stepIndex: 1,
        aborted: true,
        phase: "Degraded",
        canaryWeight: 0,
        stableWeight: 100,
        requestedWeight: 0,
      }),
      sample("thin", daysAgo(1), {
        resourceVersion: "8",
        stepIndex: 1,
        aborted: true,
        phase: "Degraded",
        canaryWeight: 0,
        stableWeight: 100,
        requestedWeight: 0,
        verified: null,
      }),
      sample("thin", daysAgo(1, 1), {
        resourceVersion: "9",
        stepIndex: 1,
        aborted: true,
        phase: "Degraded",
        canaryWeight: 0,
        stableWeight: 100,
        requestedWeight: 0,
        verified: true,
      }),
    ];
    const idle = [10, 20, 30].map((weight, i) =>
      sample("idle", daysAgo(20 - i), { resourceVersion: String(100 + i), canaryWeight: weight, stableWeight: 100 - weight }),
    );
    await repos.transaction(batchWrites(repos, [...thin, ...idle], []));

    const pruned = await new Recorder({ retentionDays: 30, compactAfterDays: 7 }, repos).prune(now);

    // Gone: a weight change and a verification change within step 0, a weight change within step 1 (thin), and
    // idle's middle weight change.
    expect(pruned).toEqual({ samples: 0, events: 0, compacted: 4 });
    // Kept: the start of step 0, of step 1, the abort, the newest state before the cutoff, and everything recent.
    expect(await read("thin")).toEqual([thin[0], thin[3], thin[5], thin[6], thin[7], thin[8]].map(stored));
    expect(await read("idle")).toEqual([idle[0], idle[2]].map(stored));
    // Nothing left to thin: a second pass removes nothing.
    expect((await new Recorder({ retentionDays: 30, compactAfterDays: 7 }, repos).prune(now)).compacted).toBe(0);
  });

  it("thins every Rollout, however many there are", async () => {
    const names = Array.from({ length: 230 }, (_, i) => `many-${i}`);
    const states = names.flatMap((name, i) =>
      [0, 1, 2].map((j) => sample(name, daysAgo(12, j), { resourceVersion: String(10_000 + i * 3 + j), canaryWeight: 10 * j })),
    );
    await repos.transaction(batchWrites(repos, states, []));
    expect((await new Recorder({ retentionDays: 30, compactAfterDays: 7 }, repos).prune(now)).compacted).toBe(names.length);
    for (const name of [names[0], names[names.length - 1]]) expect((await read(name)).map((s) => s.canaryWeight)).toEqual([0, 20]);
  });

  it("leaves every sample when compactAfterDays is not set", async () => {
    const states = [0, 1, 2].map((i) => sample("uncompacted", daysAgo(10, i), { resourceVersion: String(200 + i), canaryWeight: 10 * i }));
    await repos.transaction(batchWrites(repos, states, []));
    expect((await new Recorder({ retentionDays: 30 }, repos).prune(now)).compacted).toBe(0);
    expect(await read("uncompacted")).toEqual(states.map(stored));
  });
});

describe("the migration to the compact sample layout", () => {
  const NEW_LAYOUT = "20261201190000_compact_rollout_samples";
  const dir = path.join(
    import.meta.dirname,
    "../..",
    testDatabaseDialect() === "sqlite" ? "prisma/migrations" : "prisma/postgres/migrations",
  );
  const migrationSql = (name: string) => readFileSync(path.join(dir, name, "migration.sql"), "utf8");
  const migrationsBefore = () =>
    readdirSync(dir)
      .filter((name) => /^\d{14}_/.test(name) && name < NEW_LAYOUT)
      .sort();
  /** The new layout and every migration after it, as `prisma migrate deploy` applies them. */
  const migrationsFrom = () =>
    readdirSync(dir)
      .filter((name) => /^\d{14}_/.test(name) && name >= NEW_LAYOUT)
      .sort();

  /** Rows as the previous layout stored them: texts repeated, the time as Prisma's date. */
  const oldRows = [
    sample("checkout", new Date("2026-11-29T10:00:00.125Z"), {
      resourceVersion: "41",
      stepIndex: 0,
      message: "CanaryPauseStep",
      verified: null,
    }),
    sample("checkout", new Date("2026-11-29T10:00:01.999Z"), {
      resourceVersion: "42",
      stepIndex: 1,
      message: null,
      canaryWeight: 30,
      verified: false,
    }),
    sample("checkout", new Date("2026-11-29T10:05:00.000Z"), {
      resourceVersion: "43",
      stepIndex: 2,
      message: "CanaryPauseStep",
      aborted: true,
    }),
    sample("cart", new Date("2026-11-29T11:00:00.001Z"), {
      cluster: "staging",
      namespace: "web",
      resourceVersion: null,
      revision: null,
      stepIndex: null,
      requestedWeight: null,
      canaryWeight: null,
      stableWeight: null,
    }),
    sample("verbose", new Date("2026-11-29T12:00:00.000Z"), { resourceVersion: "7", message: "ü".repeat(3_000) }),
  ];
  const OLD_COLUMNS = `"cluster", "namespace", "name", "at", "revision", "stepIndex", "totalSteps", "phase", "message", "requestedWeight", "canaryWeight", "stableWeight", "verified", "maxWeight", "aborted", "paused", "resourceVersion"`;
  const oldValues = (s: RolloutSampleInput, at: string, bool: (v: boolean) => boolean | number) => [
    s.cluster,
    s.namespace,
    s.name,
    at,
    s.revision,
    s.stepIndex,
    s.totalSteps,
    s.phase,
    s.message,
    s.requestedWeight,
    s.canaryWeight,
    s.stableWeight,
    s.verified === null ? null : bool(s.verified),
    s.maxWeight,
    bool(s.aborted),
    bool(s.paused),
    s.resourceVersion,
  ];

  /** A database at the previous migration holding `oldRows`, then migrated to the new layout. */
  async function migratedDatabase(): Promise<string> {
    const url = await freshDatabaseUrl();
    if (testDatabaseDialect() === "sqlite") {
      const sqlite = new Database(url.slice("file:".length));
      for (const name of migrationsBefore()) sqlite.exec(migrationSql(name));
      const insert = sqlite.prepare(
        `INSERT INTO "RolloutSample" (${OLD_COLUMNS}) VALUES (${OLD_COLUMNS.split(",")
          .map(() => "?")
          .join(", ")})`,
      );
      // Prisma's SQLite dates: ISO text with an explicit offset.
      for (const s of oldRows) insert.run(...oldValues(s, s.at.toISOString().replace("Z", "+00:00"), (v) => (v ? 1 : 0)));
      for (const name of migrationsFrom()) sqlite.exec(migrationSql(name));
      sqlite.close();
      return url;
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const name of migrationsBefore()) await client.query(migrationSql(name));
      const placeholders = OLD_COLUMNS.split(",").map((_, i) => (i === 3 ? `$${i + 1}::timestamp(3)` : `$${i + 1}`));
      // PostgreSQL's: TIMESTAMP(3) without a zone, in UTC.
      for (const s of oldRows)
        await client.query(
          `INSERT INTO "RolloutSample" (${OLD_COLUMNS}) VALUES (${placeholders.join(", ")})`,
          oldValues(s, s.at.toISOString().replace("Z", ""), (v) => v),
        );
      for (const name of migrationsFrom()) await client.query(migrationSql(name));
    } finally {
      await client.end();
    }
    return url;
  }

  it("keeps every existing sample: the readers return what they returned before, and new writes follow them", async () => {
    const migrated = createDbClient(await migratedDatabase());
    try {
      const after = createRepositories(migrated);
      const checkout = { cluster: "prod", namespace: "shop", name: "checkout" };
      const stored = ({ cluster: _c, namespace: _n, name: _name, resourceVersion: _rv, ...state }: RolloutSampleInput) => state;
      expect(await after.rolloutSamples.listForRollout(checkout)).toEqual(oldRows.slice(0, 3).map(stored));
      expect(await after.rolloutSamples.listForRollout({ cluster: "staging", namespace: "web", name: "cart" })).toEqual([
        stored(oldRows[3]),
      ]);
      expect(await after.rolloutSamples.listRecentVerification(checkout, 2)).toEqual([
        { at: oldRows[1].at, verified: false },
        { at: oldRows[2].at, verified: true },
      ]);
      const latest = await after.rolloutSamples.listLatestPerRollout();
      // A message longer than the recorder stores now keeps its first 600 characters.
      expect(latest.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        oldRows[3],
        oldRows[2],
        { ...oldRows[4], message: "ü".repeat(600) },
      ]);

      // A state stored before the migration is still stored once; a new one is added after the old ones.
      const next = sample("checkout", new Date("2026-11-29T10:06:00.000Z"), {
        resourceVersion: "44",
        stepIndex: 3,
        message: "CanaryPauseStep",
      });
      await after.transaction(batchWrites(after, [oldRows[2], next], []));
      expect(await after.rolloutSamples.listForRollout(checkout)).toEqual([...oldRows.slice(0, 3), next].map(stored));
    } finally {
      await migrated.$disconnect();
    }
  });
});
