import "server-only";
import pg from "pg";
import { ApiError } from "@/lib/errors/api-error";
import type { DatabaseDialect } from "./database-url";

/** Serializes the actions on one Rollout across every replica sharing the database. */
export interface ActionLocks {
  /** Runs `fn` while holding the Rollout's lock; on SQLite (one process) it just runs it. */
  runExclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

/** The advisory-lock namespace of actions ("rsac"), the first of the two-integer key; the Rollout's hash is the second. */
const ACTION_LOCK_SPACE = 1920164195;
/** Longer than an action can take: three cluster requests of 15 s each, plus the audit writes. */
const HOLD_MS = 60_000;
/**
 * Connections of the lock pool: as many actions (on different Rollouts) hold their locks at once per replica; more
 * wait for a connection of this pool, never for one of the queries' pool.
 */
const LOCK_CONNECTIONS = 8;
/** How long an action waits for its Rollout's lock (another replica's action on it) or for a lock connection. */
const WAIT_MS = 60_000;

const busy = () =>
  new ApiError("conflict", "another action on this Rollout is still running (on this or another replica): look again and retry");

/**
 * On PostgreSQL a session-level advisory lock, taken on a connection of a small pool of its own: the action's audit
 * queries run on the queries' pool meanwhile, so an action never needs two connections of one pool at once and
 * concurrent actions cannot starve each other (or readiness) of connections. The lock goes with its connection when
 * a replica dies.
 */
export function createActionLocks(url: string | undefined, dialect: DatabaseDialect): ActionLocks {
  if (dialect === "sqlite" || !url) return { runExclusive: (_key, fn) => fn() };
  let pool: pg.Pool | undefined;
  const lockPool = () => {
    if (!pool) {
      pool = new pg.Pool({
        connectionString: url,
        max: LOCK_CONNECTIONS,
        connectionTimeoutMillis: WAIT_MS,
        idleTimeoutMillis: 30_000,
        // A wait for the lock ends as a conflict rather than holding the connection for ever.
        options: `-c lock_timeout=${WAIT_MS}`,
      });
      // An idle connection the server closed (a restart) is dropped and reopened; it must not end the process.
      pool.on("error", () => undefined);
    }
    return pool;
  };
  return {
    async runExclusive(key, fn) {
      let client: pg.PoolClient;
      try {
        client = await lockPool().connect();
      } catch (err) {
        if (err instanceof Error && /timeout/i.test(err.message)) throw busy();
        throw err;
      }
      let broken = false;
      try {
        await client.query("SELECT pg_advisory_lock($1::integer, hashtext($2))", [ACTION_LOCK_SPACE, key]);
      } catch (err) {
        client.release(true);
        if ((err as { code?: string }).code === "55P03") throw busy();
        throw err;
      }
      // Past HOLD_MS the connection is closed, which frees the lock, as the old transaction timeout did.
      const watchdog = setTimeout(() => {
        broken = true;
        client.release(true);
      }, HOLD_MS);
      watchdog.unref();
      try {
        return await fn();
      } finally {
        clearTimeout(watchdog);
        if (!broken) {
          try {
            await client.query("SELECT pg_advisory_unlock($1::integer, hashtext($2))", [ACTION_LOCK_SPACE, key]);
            client.release();
          } catch {
            client.release(true);
          }
        }
      }
    },
  };
}
