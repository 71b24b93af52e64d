import "server-only";
import type { RolloutSampleInput } from "@/lib/rollouts/recorded-sample";
import type { StoredSample } from "@/lib/rollouts/history";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { PrismaClient } from "./generated/client";
import type { PendingWrite } from "./pending-write";
import type { DatabaseDialect } from "./database-url";
import { jsonRows, selectJsonRows, sqliteBool as bool, sqliteDateTime, type JsonColumn } from "./sqlite-json-rows";

/** The recorded traffic states of Rollouts (table RolloutSample), written by the recorder only. */
export interface RolloutSampleRepository {
  /**
   * One INSERT for every sample, in the given order (see lib/db/sqlite-json-rows for why it is raw SQL). A state
   * already stored (same Rollout and resourceVersion: another replica wrote it) is skipped.
   */
  insertMany(samples: readonly RolloutSampleInput[]): PendingWrite;
  /** The newest sample of every Rollout: what the recorder compares new states with after a restart. */
  listLatestPerRollout(): Promise<RolloutSampleInput[]>;
  /** A Rollout's samples in time order; with `from`, those since then preceded by the one in force at `from`. */
  listForRollout(rollout: RolloutRef, from?: Date): Promise<StoredSample[]>;
  /** A Rollout's newest `limit` verification states, in time order (how long its weights have gone unverified). */
  listRecentVerification(rollout: RolloutRef, limit: number): Promise<Array<{ at: Date; verified: boolean | null }>>;
  /** Deletes samples older than `cutoff`; how many. */
  deleteBefore(cutoff: Date): Promise<number>;
}

type StoredFlags = { verified: number | boolean | null; aborted: number | boolean; paused: number | boolean };

const SAMPLE_COLUMNS: JsonColumn[] = ["text", "text", "text", "timestamp", "text", "int", "int", "text", "text", "float", "float", "float", "bool", "int", "bool", "bool", "text"];

export function createRolloutSampleRepository(db: PrismaClient, dialect: DatabaseDialect): RolloutSampleRepository {
  return {
    insertMany(samples) {
      const rows = jsonRows(
        samples.map((s) => [s.cluster, s.namespace, s.name, sqliteDateTime(s.at), s.revision, s.stepIndex, s.totalSteps, s.phase, s.message, s.requestedWeight, s.canaryWeight, s.stableWeight, bool(s.verified), s.maxWeight, bool(s.aborted), bool(s.paused), s.resourceVersion]),
      );
      return db.$executeRaw`
        INSERT INTO "RolloutSample" ("cluster", "namespace", "name", "at", "revision", "stepIndex", "totalSteps", "phase", "message", "requestedWeight", "canaryWeight", "stableWeight", "verified", "maxWeight", "aborted", "paused", "resourceVersion")
        ${selectJsonRows(dialect, rows, SAMPLE_COLUMNS)}
        ON CONFLICT ("cluster", "namespace", "name", "resourceVersion") DO NOTHING`;
    },

    async listLatestPerRollout() {
      const rows = await db.$queryRaw<Array<Omit<RolloutSampleInput, keyof StoredFlags> & StoredFlags>>`
        SELECT s.* FROM "RolloutSample" s
        JOIN (SELECT "cluster", "namespace", "name", MAX("id") AS "id" FROM "RolloutSample" GROUP BY "cluster", "namespace", "name") last
        ON s."id" = last."id"`;
      // Raw SQLite rows carry booleans as 0/1 (PostgreSQL's as booleans).
      return rows.map((row) => ({ ...row, verified: row.verified === null ? null : Boolean(row.verified), aborted: Boolean(row.aborted), paused: Boolean(row.paused) }));
    },

    async listForRollout({ cluster, namespace, name }, from) {
      const where = { cluster, namespace, name };
      const rows = await db.rolloutSample.findMany({ where: from ? { ...where, at: { gte: from } } : where, orderBy: [{ at: "asc" }, { id: "asc" }] });
      if (!from) return rows;
      // The state in force when the range starts, so a chart's lines begin at its left edge.
      const before = await db.rolloutSample.findFirst({ where: { ...where, at: { lt: from } }, orderBy: [{ at: "desc" }, { id: "desc" }] });
      return before ? [before, ...rows] : rows;
    },

    async listRecentVerification({ cluster, namespace, name }, limit) {
      const rows = await db.rolloutSample.findMany({ where: { cluster, namespace, name }, orderBy: [{ at: "desc" }, { id: "desc" }], take: limit, select: { at: true, verified: true } });
      return rows.reverse();
    },

    async deleteBefore(cutoff) {
      return (await db.rolloutSample.deleteMany({ where: { at: { lt: cutoff } } })).count;
    },
  };
}
