import "server-only";
import type { RolloutSampleInput } from "@/lib/rollouts/recorded-sample";
import type { StoredSample } from "@/lib/rollouts/history";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { Prisma, type PrismaClient } from "./generated/client";
import type { PendingWrite } from "./pending-write";
import type { DatabaseDialect } from "./database-url";
import { jsonRows, jsonRowsTable, sqliteBool as bool, type JsonColumn } from "./sqlite-json-rows";

/**
 * The recorded traffic states of Rollouts, written by the recorder only. Stored compactly: a sample refers to its
 * Rollout (table RolloutKey) and its message (table SampleMessage) by id and keeps its time as milliseconds, so a
 * sample costs about a third of a row that repeats those texts (see docs/database.md).
 */
export interface RolloutSampleRepository {
  /**
   * The statements that store every sample, in the given order (see lib/db/sqlite-json-rows for why it is raw SQL):
   * new Rollouts and messages first, then the samples. A state already stored (same Rollout and resourceVersion:
   * another replica wrote it) is skipped.
   */
  insertMany(samples: readonly RolloutSampleInput[]): PendingWrite[];
  /** The newest sample of every Rollout: what the recorder compares new states with after a restart. */
  listLatestPerRollout(): Promise<RolloutSampleInput[]>;
  /** A Rollout's samples in time order; with `from`, those since then preceded by the one in force at `from`. */
  listForRollout(rollout: RolloutRef, from?: Date): Promise<StoredSample[]>;
  /**
   * The applied weights of several Rollouts of one cluster (the stuck-router check's): per Rollout, keyed
   * `namespace/name`, its samples' canary and max weight since `from` in time order, preceded by the one in force at
   * `from`. A Rollout never recorded has no entry. Three statements however many Rollouts are asked for.
   */
  listWeightsSince(
    cluster: string,
    rollouts: ReadonlyArray<{ namespace: string; name: string }>,
    from: Date,
  ): Promise<Map<string, WeightRow[]>>;
  /**
   * Every Rollout's samples observed in [from, to], in time order per Rollout, each Rollout's list preceded by its
   * sample in force at `from` (what the first change in the window changed from); at most `limit` in the window.
   */
  listChangesBetween(from: Date, to: Date, limit: number): Promise<Array<RolloutRef & { samples: StoredSample[] }>>;
  /** A Rollout's newest `limit` verification states, in time order (how long its weights have gone unverified). */
  listRecentVerification(rollout: RolloutRef, limit: number): Promise<Array<{ at: Date; verified: boolean | null }>>;
  /** Deletes samples older than `cutoff`; how many. */
  deleteBefore(cutoff: Date): Promise<number>;
  /**
   * Thins the history older than `cutoff` to its steps: of consecutive samples of a Rollout with the same revision,
   * step, phase, abort and pause only the first stays (weight, verification and message changes within a step go),
   * and so does each Rollout's newest sample before `cutoff` (the state in force then). How many were deleted.
   */
  compactBefore(cutoff: Date): Promise<number>;
}

/** A recorded sample's applied weights (listWeightsSince). */
export interface WeightRow {
  atMs: number;
  canaryWeight: number | null;
  maxWeight: number;
}

type StoredFlags = { verified: number | boolean | null; aborted: number | boolean; paused: number | boolean };
type RawLatest = Omit<RolloutSampleInput, keyof StoredFlags | "at"> & StoredFlags & { atMs: bigint | number };

const KEY_COLUMNS = [
  ["cluster", "text"],
  ["namespace", "text"],
  ["name", "text"],
] as const satisfies ReadonlyArray<readonly [string, JsonColumn]>;

const SAMPLE_COLUMNS = [
  ["cluster", "text"],
  ["namespace", "text"],
  ["name", "text"],
  ["atMs", "bigint"],
  ["revision", "text"],
  ["stepIndex", "int"],
  ["totalSteps", "int"],
  ["phase", "text"],
  ["message", "text"],
  ["requestedWeight", "float"],
  ["canaryWeight", "float"],
  ["stableWeight", "float"],
  ["verified", "bool"],
  ["maxWeight", "int"],
  ["aborted", "bool"],
  ["paused", "bool"],
  ["manager", "text"],
  ["resourceVersion", "text"],
] as const satisfies ReadonlyArray<readonly [string, JsonColumn]>;

/** What a reader selects of a sample: a StoredSample once its time and message are unpacked ({@link toStored}). */
const STORED_SELECT = {
  atMs: true,
  revision: true,
  stepIndex: true,
  totalSteps: true,
  phase: true,
  message: { select: { text: true } },
  requestedWeight: true,
  canaryWeight: true,
  stableWeight: true,
  verified: true,
  maxWeight: true,
  aborted: true,
  paused: true,
} as const satisfies Prisma.RolloutSampleSelect;

type SelectedSample = Prisma.RolloutSampleGetPayload<{ select: typeof STORED_SELECT }>;

function toStored({ atMs, message, ...rest }: SelectedSample): StoredSample {
  return { ...rest, at: new Date(Number(atMs)), message: message?.text ?? null };
}

/** Revision, step, phase, abort and pause as one comparable text (the same in SQLite and PostgreSQL). */
const STEP_STATE = Prisma.raw(
  `COALESCE("revision", '') || '|' || COALESCE(CAST("stepIndex" AS TEXT), '') || '|' || CAST("totalSteps" AS TEXT) || '|' || "phase" || '|' || CAST("aborted" AS TEXT) || '|' || CAST("paused" AS TEXT)`,
);

/**
 * A message is stored to this many characters: each text is a key of a unique index, and a PostgreSQL index entry
 * holds at most about 2,700 bytes (600 characters are at most 2,400 bytes of UTF-8).
 */
const MAX_MESSAGE_CHARS = 600;

function storedMessage(message: string | null): string | null {
  return message === null || message.length <= MAX_MESSAGE_CHARS ? message : [...message].slice(0, MAX_MESSAGE_CHARS).join("");
}

/** Rollouts thinned per statement by compactBefore. */
const COMPACT_ROLLOUTS_PER_STATEMENT = 100;

/**
 * A list for `IN (…)` padded with `filler` (a value no row has) to the next power of two, at least 8: a statement per
 * list length would push the server's hot statements out of the SQLite connection's kept ones (sqlite-statements.ts).
 */
function padToListSize<T>(items: T[], filler: T): T[] {
  let size = 8;
  while (size < items.length) size *= 2;
  return items.length === size ? items : [...items, ...Array.from({ length: size - items.length }, () => filler)];
}

function uniqueRows<T>(items: readonly T[], row: (item: T) => Array<string | null>): Array<Array<string | null>> {
  const seen = new Map<string, Array<string | null>>();
  for (const item of items) {
    const values = row(item);
    seen.set(JSON.stringify(values), values);
  }
  return [...seen.values()];
}

export function createRolloutSampleRepository(db: PrismaClient, dialect: DatabaseDialect): RolloutSampleRepository {
  /** The id of a recorded Rollout; null when nothing was ever recorded of it. */
  async function keyIdOf({ cluster, namespace, name }: RolloutRef): Promise<number | null> {
    const key = await db.rolloutKey.findUnique({ where: { cluster_namespace_name: { cluster, namespace, name } }, select: { id: true } });
    return key?.id ?? null;
  }

  /** New Rollouts only (NOT EXISTS first: PostgreSQL would spend a sequence number on every conflicting row). */
  function insertKeys(samples: readonly RolloutSampleInput[]): PendingWrite {
    const keys = jsonRows(uniqueRows(samples, (s) => [s.cluster, s.namespace, s.name]));
    return db.$executeRaw`
      INSERT INTO "RolloutKey" ("cluster", "namespace", "name")
      SELECT r."cluster", r."namespace", r."name" FROM ${jsonRowsTable(dialect, keys, KEY_COLUMNS)}
      WHERE NOT EXISTS (SELECT 1 FROM "RolloutKey" k WHERE k."cluster" = r."cluster" AND k."namespace" = r."namespace" AND k."name" = r."name")
      ORDER BY r."position"
      ON CONFLICT ("cluster", "namespace", "name") DO NOTHING`;
  }

  function insertMessages(messages: ReadonlyArray<string>): PendingWrite {
    const rows = jsonRows(uniqueRows(messages, (m) => [m]));
    return db.$executeRaw`
      INSERT INTO "SampleMessage" ("text")
      SELECT r."text" FROM ${jsonRowsTable(dialect, rows, [["text", "text"]])}
      WHERE NOT EXISTS (SELECT 1 FROM "SampleMessage" m WHERE m."text" = r."text")
      ORDER BY r."position"
      ON CONFLICT ("text") DO NOTHING`;
  }

  function insertSamples(samples: readonly RolloutSampleInput[]): PendingWrite {
    const rows = jsonRows(
      samples.map((s) => [
        s.cluster,
        s.namespace,
        s.name,
        s.at.getTime(),
        s.revision,
        s.stepIndex,
        s.totalSteps,
        s.phase,
        storedMessage(s.message),
        s.requestedWeight,
        s.canaryWeight,
        s.stableWeight,
        bool(s.verified),
        s.maxWeight,
        bool(s.aborted),
        bool(s.paused),
        s.manager ?? null,
        s.resourceVersion,
      ]),
    );
    return db.$executeRaw`
      INSERT INTO "RolloutSample" ("rolloutId", "atMs", "revision", "stepIndex", "totalSteps", "phase", "messageId", "requestedWeight", "canaryWeight", "stableWeight", "verified", "maxWeight", "aborted", "paused", "manager", "resourceVersion")
      SELECT k."id", r."atMs", r."revision", r."stepIndex", r."totalSteps", r."phase", m."id", r."requestedWeight", r."canaryWeight", r."stableWeight", r."verified", r."maxWeight", r."aborted", r."paused", r."manager", r."resourceVersion"
      FROM ${jsonRowsTable(dialect, rows, SAMPLE_COLUMNS)}
      JOIN "RolloutKey" k ON k."cluster" = r."cluster" AND k."namespace" = r."namespace" AND k."name" = r."name"
      LEFT JOIN "SampleMessage" m ON m."text" = r."message"
      WHERE true
      ORDER BY r."position"
      ON CONFLICT ("rolloutId", "resourceVersion") DO NOTHING`;
  }

  function compactRollouts(firstId: number, lastId: number, cutoff: Date): Promise<number> {
    return db.$executeRaw`
      DELETE FROM "RolloutSample" WHERE "id" IN (
        SELECT o."id" FROM (
          SELECT "id", ${STEP_STATE} AS "state",
            LAG(${STEP_STATE}) OVER (PARTITION BY "rolloutId" ORDER BY "atMs", "id") AS "previous",
            ROW_NUMBER() OVER (PARTITION BY "rolloutId" ORDER BY "atMs" DESC, "id" DESC) AS "fromNewest"
          FROM "RolloutSample" WHERE "rolloutId" BETWEEN ${firstId} AND ${lastId} AND "atMs" < ${cutoff.getTime()}
        ) o
        WHERE o."previous" = o."state" AND o."fromNewest" > 1
      )`;
  }

  return {
    insertMany(samples) {
      if (samples.length === 0) return [];
      const messages = samples.flatMap((s) => (s.message === null ? [] : [storedMessage(s.message)!]));
      return [insertKeys(samples), ...(messages.length > 0 ? [insertMessages(messages)] : []), insertSamples(samples)];
    },

    async listLatestPerRollout() {
      const rows = await db.$queryRaw<RawLatest[]>`
        SELECT k."cluster", k."namespace", k."name", s."atMs", s."revision", s."stepIndex", s."totalSteps", s."phase", m."text" AS "message",
          s."requestedWeight", s."canaryWeight", s."stableWeight", s."verified", s."maxWeight", s."aborted", s."paused", s."resourceVersion"
        FROM (SELECT "rolloutId", MAX("id") AS "id" FROM "RolloutSample" GROUP BY "rolloutId") last
        JOIN "RolloutSample" s ON s."id" = last."id"
        JOIN "RolloutKey" k ON k."id" = s."rolloutId"
        LEFT JOIN "SampleMessage" m ON m."id" = s."messageId"`;
      // Raw SQLite rows carry booleans as 0/1 (PostgreSQL's as booleans) and the time as a number or a bigint.
      return rows.map(({ atMs, ...row }) => ({
        ...row,
        at: new Date(Number(atMs)),
        verified: row.verified === null ? null : Boolean(row.verified),
        aborted: Boolean(row.aborted),
        paused: Boolean(row.paused),
      }));
    },

    async listChangesBetween(from, to, limit) {
      const inWindow = await db.rolloutSample.findMany({
        where: { atMs: { gte: BigInt(from.getTime()), lte: BigInt(to.getTime()) } },
        orderBy: [{ atMs: "desc" }, { id: "desc" }],
        take: limit,
        select: { ...STORED_SELECT, manager: true, rolloutId: true, rollout: { select: { cluster: true, namespace: true, name: true } } },
      });
      const ids = [...new Set(inWindow.map((row) => row.rolloutId))];
      const before = ids.length
        ? await db.rolloutSample.findMany({
            where: { rolloutId: { in: ids }, atMs: { lt: BigInt(from.getTime()) } },
            orderBy: [{ atMs: "desc" }, { id: "desc" }],
            distinct: ["rolloutId"],
            select: { ...STORED_SELECT, manager: true, rolloutId: true },
          })
        : [];
      const byRollout = new Map<number, RolloutRef & { samples: StoredSample[] }>();
      for (const { rolloutId, rollout, ...row } of [...inWindow].reverse()) {
        let entry = byRollout.get(rolloutId);
        if (!entry) byRollout.set(rolloutId, (entry = { ...rollout, samples: [] }));
        entry.samples.push({ ...toStored(row), manager: row.manager });
      }
      for (const { rolloutId, ...row } of before) byRollout.get(rolloutId)?.samples.unshift({ ...toStored(row), manager: row.manager });
      return [...byRollout.values()];
    },

    async listForRollout(rollout, from) {
      const rolloutId = await keyIdOf(rollout);
      if (rolloutId === null) return [];
      const fromMs = from ? BigInt(from.getTime()) : undefined;
      const rows = await db.rolloutSample.findMany({
        where: fromMs === undefined ? { rolloutId } : { rolloutId, atMs: { gte: fromMs } },
        orderBy: [{ atMs: "asc" }, { id: "asc" }],
        select: STORED_SELECT,
      });
      if (fromMs === undefined) return rows.map(toStored);
      // The state in force when the range starts, so a chart's lines begin at its left edge.
      const before = await db.rolloutSample.findFirst({
        where: { rolloutId, atMs: { lt: fromMs } },
        orderBy: [{ atMs: "desc" }, { id: "desc" }],
        select: STORED_SELECT,
      });
      return (before ? [before, ...rows] : rows).map(toStored);
    },

    async listWeightsSince(cluster, rollouts, from) {
      const out = new Map<string, WeightRow[]>();
      const wanted = new Set(rollouts.map((r) => `${r.namespace}/${r.name}`));
      if (wanted.size === 0) return out;
      const keys = await db.rolloutKey.findMany({
        where: { cluster, name: { in: padToListSize([...new Set(rollouts.map((r) => r.name))], "") } },
        select: { id: true, namespace: true, name: true },
      });
      const keyOf = new Map<number, string>();
      for (const k of keys) if (wanted.has(`${k.namespace}/${k.name}`)) keyOf.set(k.id, `${k.namespace}/${k.name}`);
      if (keyOf.size === 0) return out;
      // Never an id (they count from 1); the lists are padded so their statements are few and stay prepared.
      const ids = padToListSize([...keyOf.keys()], -1);
      const fromMs = BigInt(from.getTime());
      type RawWeight = { rolloutId: number | bigint; atMs: number | bigint; canaryWeight: number | null; maxWeight: number | bigint };
      // The one in force at `from`: each Rollout's newest sample before it, found on the (rolloutId, …) index.
      const before = await db.$queryRaw<RawWeight[]>`
        SELECT s."rolloutId", s."atMs", s."canaryWeight", s."maxWeight" FROM "RolloutSample" s WHERE s."id" IN (
          SELECT (SELECT b."id" FROM "RolloutSample" b WHERE b."rolloutId" = k."id" AND b."atMs" < ${fromMs} ORDER BY b."atMs" DESC, b."id" DESC LIMIT 1)
          FROM "RolloutKey" k WHERE k."id" IN (${Prisma.join(ids)}))`;
      const since = await db.rolloutSample.findMany({
        where: { rolloutId: { in: ids }, atMs: { gte: fromMs } },
        orderBy: [{ atMs: "asc" }, { id: "asc" }],
        select: { rolloutId: true, atMs: true, canaryWeight: true, maxWeight: true },
      });
      for (const row of [...before, ...since]) {
        const key = keyOf.get(Number(row.rolloutId));
        if (key === undefined) continue;
        let list = out.get(key);
        if (!list) out.set(key, (list = []));
        list.push({ atMs: Number(row.atMs), canaryWeight: row.canaryWeight, maxWeight: Number(row.maxWeight) });
      }
      return out;
    },

    async listRecentVerification(rollout, limit) {
      const rolloutId = await keyIdOf(rollout);
      if (rolloutId === null) return [];
      const rows = await db.rolloutSample.findMany({
        where: { rolloutId },
        orderBy: [{ atMs: "desc" }, { id: "desc" }],
        take: limit,
        select: { atMs: true, verified: true },
      });
      return rows.reverse().map((row) => ({ at: new Date(Number(row.atMs)), verified: row.verified }));
    },

    async deleteBefore(cutoff) {
      return (await db.rolloutSample.deleteMany({ where: { atMs: { lt: BigInt(cutoff.getTime()) } } })).count;
    },

    async compactBefore(cutoff) {
      // A slice of the Rollouts per statement (the thinning is per Rollout, so the result is the same): SQLite runs
      // a statement on the event loop, and one pass over 800,000 old samples held it for 9 s (0.2 s a slice).
      const { _max } = await db.rolloutKey.aggregate({ _max: { id: true } });
      let deleted = 0;
      for (let first = 1; first <= (_max.id ?? 0); first += COMPACT_ROLLOUTS_PER_STATEMENT) {
        deleted += await compactRollouts(first, first + COMPACT_ROLLOUTS_PER_STATEMENT - 1, cutoff);
      }
      return deleted;
    },
  };
}
