import "server-only";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { PrismaClient } from "./generated/client";
import type { PendingWrite } from "./pending-write";
import type { DatabaseDialect } from "./database-url";
import { jsonRows, selectJsonRows, sqliteDateTime, type JsonColumn } from "./sqlite-json-rows";

/** A Kubernetes Event involving a Rollout, as stored (kept beyond the cluster's event TTL). */
export interface RolloutEventRow {
  cluster: string;
  namespace: string;
  rollout: string;
  /** The Rollout object's uid (`involvedObject.uid`); null when the Event did not say (or was stored before it was kept). */
  rolloutUid: string | null;
  eventUid: string;
  type: string;
  reason: string;
  message: string;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

/** Rollout events (table RolloutEvent), written by the recorder only. */
export interface RolloutEventRepository {
  /** Stores each event, or updates count, last time and message of one seen before (same cluster and uid). */
  upsertMany(events: readonly RolloutEventRow[]): PendingWrite;
  /**
   * A Rollout's most recent events, newest first: those about this object (its uid), and those that do not say which
   * object — never a deleted predecessor's of the same name.
   */
  listForRollout(rollout: RolloutRef & { uid: string | null }, limit: number): Promise<RolloutEventRow[]>;
  /**
   * A cluster's Warning events last seen since `from`, newest first: of the given Rollouts only, or of every
   * Rollout when `rollouts` is null (the caller filters; a query of hundreds of OR terms is slower than that).
   */
  listWarnings(
    cluster: string,
    rollouts: readonly Omit<RolloutRef, "cluster">[] | null,
    from: Date,
    limit: number,
  ): Promise<RolloutEventRow[]>;
  /** Every Rollout event last seen in [from, to], newest first (the caller filters what a user may read). */
  listBetween(from: Date, to: Date, limit: number): Promise<RolloutEventRow[]>;
  /** Deletes events last seen before `cutoff`; how many. */
  deleteBefore(cutoff: Date): Promise<number>;
}

const EVENT_COLUMNS: JsonColumn[] = ["text", "text", "text", "text", "text", "text", "text", "text", "int", "timestamp", "timestamp"];

export function createRolloutEventRepository(db: PrismaClient, dialect: DatabaseDialect): RolloutEventRepository {
  return {
    upsertMany(events) {
      const rows = jsonRows(
        events.map((e) => [
          e.cluster,
          e.namespace,
          e.rollout,
          e.rolloutUid,
          e.eventUid,
          e.type,
          e.reason,
          e.message,
          e.count,
          sqliteDateTime(e.firstAt),
          sqliteDateTime(e.lastAt),
        ]),
      );
      return db.$executeRaw`
        INSERT INTO "RolloutEvent" ("cluster", "namespace", "rollout", "rolloutUid", "eventUid", "type", "reason", "message", "count", "firstAt", "lastAt")
        ${selectJsonRows(dialect, rows, EVENT_COLUMNS)}
        ON CONFLICT ("cluster", "eventUid") DO UPDATE SET "count" = EXCLUDED."count", "lastAt" = EXCLUDED."lastAt", "message" = EXCLUDED."message"`;
    },

    listForRollout({ cluster, namespace, name, uid }, limit) {
      const sameObject = uid === null ? {} : { OR: [{ rolloutUid: uid }, { rolloutUid: null }] };
      return db.rolloutEvent.findMany({
        where: { cluster, namespace, rollout: name, ...sameObject },
        orderBy: { lastAt: "desc" },
        take: limit,
      });
    },

    listWarnings(cluster, rollouts, from, limit) {
      const only = rollouts ? { OR: rollouts.map((r) => ({ namespace: r.namespace, rollout: r.name })) } : {};
      return db.rolloutEvent.findMany({
        where: { cluster, type: "Warning", lastAt: { gte: from }, ...only },
        orderBy: { lastAt: "desc" },
        take: limit,
      });
    },

    listBetween(from, to, limit) {
      return db.rolloutEvent.findMany({ where: { lastAt: { gte: from, lte: to } }, orderBy: { lastAt: "desc" }, take: limit });
    },

    async deleteBefore(cutoff) {
      return (await db.rolloutEvent.deleteMany({ where: { lastAt: { lt: cutoff } } })).count;
    },
  };
}
