import "server-only";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
import { jsonRows, sqliteBool as bool, sqliteDateTime } from "@/lib/db/sqlite-json-rows";
import type { RolloutSampleInput } from "./sample";

export interface EventRow {
  cluster: string;
  namespace: string;
  rollout: string;
  eventUid: string;
  type: string;
  reason: string;
  message: string;
  count: number;
  firstAt: Date;
  lastAt: Date;
}

/**
 * The statements of one recorder flush: one INSERT for every sample and one INSERT … ON CONFLICT for every event,
 * each taking its rows as a single JSON parameter (see lib/db/sqlite-json-rows): at ~400 events a second, one
 * Prisma upsert per event used more CPU than everything else the server does.
 */
export function batchWrites(db: PrismaClient, samples: RolloutSampleInput[], events: EventRow[]): Prisma.PrismaPromise<number>[] {
  const statements: Prisma.PrismaPromise<number>[] = [];
  if (samples.length > 0) {
    const rows = jsonRows(
      samples.map((s) => [s.cluster, s.namespace, s.name, sqliteDateTime(s.at), s.revision, s.stepIndex, s.totalSteps, s.phase, s.message, s.requestedWeight, s.canaryWeight, s.stableWeight, bool(s.verified), s.maxWeight, bool(s.aborted), bool(s.paused), s.resourceVersion]),
    );
    statements.push(db.$executeRaw`
      INSERT INTO "RolloutSample" ("cluster", "namespace", "name", "at", "revision", "stepIndex", "totalSteps", "phase", "message", "requestedWeight", "canaryWeight", "stableWeight", "verified", "maxWeight", "aborted", "paused", "resourceVersion")
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9, value ->> 10, value ->> 11, value ->> 12, value ->> 13, value ->> 14, value ->> 15, value ->> 16
      FROM json_each(${rows}) ORDER BY key`);
  }
  if (events.length > 0) {
    const rows = jsonRows(events.map((e) => [e.cluster, e.namespace, e.rollout, e.eventUid, e.type, e.reason, e.message, e.count, sqliteDateTime(e.firstAt), sqliteDateTime(e.lastAt)]));
    // `WHERE true` is SQLite's required disambiguation between INSERT … SELECT and an ON CONFLICT clause.
    statements.push(db.$executeRaw`
      INSERT INTO "RolloutEvent" ("cluster", "namespace", "rollout", "eventUid", "type", "reason", "message", "count", "firstAt", "lastAt")
      SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, value ->> 5, value ->> 6, value ->> 7, value ->> 8, value ->> 9
      FROM json_each(${rows}) WHERE true ORDER BY key
      ON CONFLICT ("cluster", "eventUid") DO UPDATE SET "count" = excluded."count", "lastAt" = excluded."lastAt", "message" = excluded."message"`);
  }
  return statements;
}
