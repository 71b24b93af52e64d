import "server-only";
import { AuditAfter, AuditBefore, type AuditEntryView, type AuditOutcome, type AuditQuery, type AuditRecord } from "@/lib/audit/schema";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { Prisma, PrismaClient } from "./generated/client";

/** Which entries to read: the audit page's filters and `before` cursor. */
export type AuditFilter = Omit<AuditQuery, "limit">;

/** An action that went through on a Rollout, for its chart markers. */
export interface DoneAction {
  at: Date;
  action: string;
  user: string;
}

/**
 * The audit log (table AuditEntry). Rows are deleted only past the retention (audit.retentionDays); the only update
 * is the one that settles a pending row (an action's intent) with its outcome, or marks it interrupted when nobody is
 * left to settle it.
 */
export interface AuditEntryRepository {
  /** Writes the entry and returns its id. */
  append(record: AuditRecord): Promise<number>;
  /**
   * Settles a pending (or interrupted) entry with its outcome and, for an applied action, the state it left; false
   * when no such entry is waiting for one.
   */
  settle(id: number, outcome: Exclude<AuditOutcome, "pending">, message: string | null, after?: AuditAfter | null): Promise<boolean>;
  /** Marks every entry still pending since before `startedBefore` as interrupted; returns how many. */
  markInterrupted(startedBefore: Date, message: string): Promise<number>;
  /** Deletes the settled entries written before `before` (a pending one waits for its outcome); returns how many. */
  deleteOlderThan(before: Date): Promise<number>;
  /** Matching entries, newest first. */
  list(filter: AuditFilter, limit: number): Promise<AuditEntryView[]>;
  /** The actions that went through on one Rollout since `from`, oldest first. */
  listDone(rollout: RolloutRef, from: Date, limit: number): Promise<DoneAction[]>;
  /**
   * Whether an action on this Rollout was started (pending) or changed it (done) since `from`, on a state with one of
   * these resourceVersions: by any replica, as the shared log says.
   */
  hasActedOn(rollout: RolloutRef, resourceVersions: readonly string[], from: Date): Promise<boolean>;
}

type AuditRow = Prisma.AuditEntryGetPayload<object>;

/** The outcome message of an action that found nothing to change (lib/services/rollout-actions). */
export const NOTHING_PATCHED = "nothing to patch";

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toView(row: AuditRow): AuditEntryView {
  const groups = parseJson(row.groups);
  const before = AuditBefore.safeParse(parseJson(row.before));
  const after = row.after === null ? null : AuditAfter.safeParse(parseJson(row.after));
  return {
    id: row.id,
    at: row.at.toISOString(),
    user: row.user,
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : [],
    cluster: row.cluster,
    namespace: row.namespace,
    rollout: row.rollout,
    action: row.action,
    before: before.success ? before.data : null,
    after: after?.success ? after.data : null,
    outcome: row.outcome,
    message: row.message,
    requestId: row.requestId,
    clientAddress: row.clientAddress,
  };
}

function toWhere(filter: AuditFilter): Prisma.AuditEntryWhereInput {
  const at: Prisma.DateTimeFilter = {};
  if (filter.from) at.gte = new Date(filter.from);
  if (filter.to) at.lte = new Date(filter.to);
  return {
    ...(filter.cluster ? { cluster: filter.cluster } : {}),
    ...(filter.namespace ? { namespace: filter.namespace } : {}),
    ...(filter.rollout ? { rollout: filter.rollout } : {}),
    ...(filter.user ? { user: { contains: filter.user } } : {}),
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.outcome ? { outcome: filter.outcome } : {}),
    ...(filter.from || filter.to ? { at } : {}),
    ...(filter.before ? { id: { lt: filter.before } } : {}),
  };
}

/** `durable`: resolves once what was committed before survives a power loss (see durableCommit). */
export function createAuditEntryRepository(db: PrismaClient, durable: () => Promise<void>): AuditEntryRepository {
  return {
    async append(record) {
      // Field by field: a record may carry more than the table has (a caller's spread request context).
      const { user, cluster, namespace, rollout, action, outcome, message, requestId, clientAddress } = record;
      const groups = JSON.stringify(record.groups);
      const before = JSON.stringify(record.before);
      const row = await db.auditEntry.create({
        data: { user, groups, cluster, namespace, rollout, action, before, outcome, message, requestId, clientAddress },
        select: { id: true },
      });
      await durable();
      return row.id;
    },

    async settle(id, outcome, message, after) {
      // A late outcome also replaces "interrupted": the action's own answer is better than the guess.
      const data = { outcome, message, ...(after ? { after: JSON.stringify(after) } : {}) };
      const { count } = await db.auditEntry.updateMany({ where: { id, outcome: { in: ["pending", "interrupted"] } }, data });
      await durable();
      return count > 0;
    },

    async markInterrupted(startedBefore, message) {
      const { count } = await db.auditEntry.updateMany({
        where: { outcome: "pending", at: { lt: startedBefore } },
        data: { outcome: "interrupted", message },
      });
      await durable();
      return count;
    },

    async deleteOlderThan(before) {
      const { count } = await db.auditEntry.deleteMany({ where: { at: { lt: before }, outcome: { not: "pending" } } });
      return count;
    },

    async list(filter, limit) {
      const rows = await db.auditEntry.findMany({ where: toWhere(filter), orderBy: { id: "desc" }, take: limit });
      return rows.map(toView);
    },

    async hasActedOn({ cluster, namespace, name }, resourceVersions, from) {
      // `before` is JSON.stringify of AuditBefore: its resourceVersion appears exactly as written here.
      const onVersion = resourceVersions.map((v) => ({ before: { contains: `"resourceVersion":${JSON.stringify(v)}` } }));
      const acted = { OR: [{ outcome: "pending" }, { outcome: "done", NOT: { message: NOTHING_PATCHED } }] };
      const count = await db.auditEntry.count({
        where: { cluster, namespace, rollout: name, at: { gte: from }, AND: [acted, { OR: onVersion }] },
      });
      return count > 0;
    },

    listDone({ cluster, namespace, name }, from, limit) {
      return db.auditEntry.findMany({
        where: { cluster, namespace, rollout: name, outcome: "done", at: { gte: from } },
        orderBy: { at: "asc" },
        take: limit,
        select: { at: true, action: true, user: true },
      });
    },
  };
}
