import "server-only";
import type { DatabaseDialect } from "./database-url";
import type { PrismaClient } from "./generated/client";

/** Serializes the actions on one Rollout across every replica sharing the database. */
export interface ActionLocks {
  /** Runs `fn` while holding the Rollout's lock; on SQLite (one process) it just runs it. */
  runExclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** The advisory-lock namespace of actions ("rsac"), the first of the two-integer key; the Rollout's hash is the second. */
const ACTION_LOCK_SPACE = 1920164195;
/** Longer than an action can take: three cluster requests of 15 s each, plus the audit writes. */
const HOLD_MS = 60_000;

export function createActionLocks(db: PrismaClient, dialect: DatabaseDialect): ActionLocks {
  if (dialect === "sqlite") return { runExclusive: (_key, fn) => fn() };
  return {
    runExclusive(key, fn) {
      // A transaction-level lock: released at commit or rollback, and by the server if this replica dies.
      return db.$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${ACTION_LOCK_SPACE}::integer, hashtext(${key}))`;
          return fn();
        },
        { maxWait: 10_000, timeout: HOLD_MS },
      );
    },
  };
}
