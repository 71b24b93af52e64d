import "server-only";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
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
 * Rows per statement. SQLite allows 32,766 bound parameters; 17 columns × 500 rows stays well inside, and a few
 * statements per flush is what keeps a flush cheap.
 */
const CHUNK = 500;

/** DateTime exactly as Prisma stores it in SQLite, so Prisma's own reads and `lt`/`gt` filters (text order) agree. */
export function sqliteDateTime(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

/**
 * The statements of one recorder flush: multi-row INSERTs for samples and one INSERT … ON CONFLICT per chunk of
 * events. Prisma's model API compiles one query per row for upserts; at fleet scale (hundreds of events a second)
 * that alone used more CPU than everything else the server does, so the recorder writes raw SQL here.
 */
export function batchWrites(db: PrismaClient, samples: RolloutSampleInput[], events: EventRow[]): Prisma.PrismaPromise<number>[] {
  const statements: Prisma.PrismaPromise<number>[] = [];
  for (const chunk of chunks(samples)) {
    const values = chunk.map(
      (s) =>
        Prisma.sql`(${s.cluster}, ${s.namespace}, ${s.name}, ${sqliteDateTime(s.at)}, ${s.revision}, ${s.stepIndex}, ${s.totalSteps}, ${s.phase}, ${s.message}, ${s.requestedWeight}, ${s.canaryWeight}, ${s.stableWeight}, ${bool(s.verified)}, ${s.maxWeight}, ${bool(s.aborted)}, ${bool(s.paused)}, ${s.resourceVersion})`,
    );
    statements.push(db.$executeRaw`
      INSERT INTO "RolloutSample" ("cluster", "namespace", "name", "at", "revision", "stepIndex", "totalSteps", "phase", "message", "requestedWeight", "canaryWeight", "stableWeight", "verified", "maxWeight", "aborted", "paused", "resourceVersion")
      VALUES ${Prisma.join(values)}`);
  }
  for (const chunk of chunks(events)) {
    const values = chunk.map(
      (e) =>
        Prisma.sql`(${e.cluster}, ${e.namespace}, ${e.rollout}, ${e.eventUid}, ${e.type}, ${e.reason}, ${e.message}, ${e.count}, ${sqliteDateTime(e.firstAt)}, ${sqliteDateTime(e.lastAt)})`,
    );
    statements.push(db.$executeRaw`
      INSERT INTO "RolloutEvent" ("cluster", "namespace", "rollout", "eventUid", "type", "reason", "message", "count", "firstAt", "lastAt")
      VALUES ${Prisma.join(values)}
      ON CONFLICT ("cluster", "eventUid") DO UPDATE SET "count" = excluded."count", "lastAt" = excluded."lastAt", "message" = excluded."message"`);
  }
  return statements;
}
