import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";
import type BetterSqlite3 from "better-sqlite3";
import { sqliteFileOf } from "./database-url";
import { startSqliteCheckpointer } from "./sqlite-checkpointer";
import { reusePreparedStatements } from "./sqlite-statements";

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type Transaction = Awaited<ReturnType<SqlDriverAdapter["startTransaction"]>>;
type SqlQuery = Parameters<Transaction["executeRaw"]>[0];

/**
 * How long one statement waits for a lock another connection holds (an operator's sqlite3 shell, a backup, a second
 * process) before failing with SQLITE_BUSY. better-sqlite3 waits synchronously, so the whole event loop — every
 * request and stream — waits with it: keep it short and let writers retry (the recorder backs off and catches up).
 */
const BUSY_TIMEOUT_MS = 100;

/**
 * Opens the database the way a server needs it: a short busy timeout, write-ahead logging (readers never wait for a
 * writer, so pages keep reading history while something else writes or holds a write lock; a backup does not block
 * writes) and transactions that always give the connection back (see {@link releasingOnFailedEnd}).
 *
 * Nothing that can wait for the disk runs on the event loop where it can run elsewhere (every statement of this
 * connection does; better-sqlite3 is synchronous):
 * - checkpoints run on a thread of their own (see startSqliteCheckpointer);
 * - a commit does not sync the log (`synchronous = NORMAL`, safe with write-ahead logging: a commit survives the
 *   server's crash, and the next checkpoint, within a second, syncs it against a power loss). The audit log, which
 *   must survive that too, syncs the log off the event loop after each write (syncWriteAheadLog);
 * - sorts and temporary tables stay in memory (`temp_store = MEMORY`), not in files under /var/tmp;
 * - statements are compiled once and kept (reusePreparedStatements), not at every run.
 */
export function createSqliteAdapter(url: string): SqlDriverAdapterFactory {
  const inner = new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS });
  const file = sqliteFileOf(url);
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      keepPreparedStatements(adapter);
      await adapter.executeScript("PRAGMA temp_store = MEMORY");
      if (file === null || !(await enableWriteAheadLog(adapter))) return withReleasingTransactions(adapter, async () => undefined);
      // The log file shrinks back to this after a checkpoint, should it have grown while checkpoints could not run.
      await adapter.executeScript("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = 67108864; PRAGMA wal_autocheckpoint = 0");
      const checkpointer = startSqliteCheckpointer(file, (err) => {
        console.warn("database: checkpoints are back on the server's connection; the checkpointer's thread failed:", err);
        adapter.executeScript("PRAGMA wal_autocheckpoint = 1000").catch(() => undefined);
      });
      return withReleasingTransactions(adapter, () => checkpointer.stop());
    },
  };
}

/** The adapter's connection (its `client`) reuses its prepared statements (see reusePreparedStatements). */
function keepPreparedStatements(adapter: SqlDriverAdapter): void {
  const client = (adapter as unknown as { client?: Partial<BetterSqlite3.Database> }).client;
  if (typeof client?.prepare === "function" && typeof client.exec === "function") reusePreparedStatements(client as BetterSqlite3.Database);
  else console.warn("database: the SQLite adapter's connection was not found; every statement is prepared again");
}

/** Whether the database now logs ahead (the mode is kept in the file; switching needs a moment without other locks). */
async function enableWriteAheadLog(adapter: SqlDriverAdapter): Promise<boolean> {
  const mode = await adapter
    .queryRaw({ sql: "PRAGMA journal_mode = WAL", args: [], argTypes: [] })
    .then((result) => String(result.rows[0]?.[0]).toLowerCase())
    .catch((err: unknown) => String(err));
  if (mode === "wal") return true;
  console.warn(`database: could not switch to write-ahead logging (${mode}); readers will wait for writers`);
  return false;
}

function withReleasingTransactions(adapter: SqlDriverAdapter, beforeDispose: () => Promise<void>): SqlDriverAdapter {
  // The adapter's methods live on its prototype: delegate explicitly rather than spread.
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: (script) => adapter.executeScript(script),
    getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo!() : undefined,
    dispose: async () => {
      await beforeDispose();
      await adapter.dispose();
    },
    startTransaction: async (isolationLevel) => releasingOnFailedEnd(await adapter.startTransaction(isolationLevel)),
  };
}

const ENDS = new Set(["COMMIT", "ROLLBACK"]);

/**
 * Prisma ends a transaction by running COMMIT (or ROLLBACK) and only then calling `commit()`, which frees the
 * adapter's one connection for the next transaction. When that statement fails — SQLITE_FULL as the pages are
 * written, SQLITE_BUSY — `commit()` is never called: every later transaction waited forever and the recorder
 * silently stopped for good. Here a failed end rolls back what is still open and frees the connection, then fails.
 */
function releasingOnFailedEnd(tx: Transaction): Transaction {
  let released = false;
  const release = async (end: () => Promise<void>) => {
    if (released) return;
    released = true;
    await end();
  };
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (query) => tx.queryRaw(query),
    async executeRaw(query: SqlQuery) {
      try {
        return await tx.executeRaw(query);
      } catch (err) {
        if (!ENDS.has(query.sql)) throw err;
        // After a failed COMMIT SQLite may keep the transaction open (busy, a deferred constraint) or have rolled it
        // back itself (disk full); a ROLLBACK of nothing fails harmlessly.
        await tx.executeRaw({ sql: "ROLLBACK", args: [], argTypes: [] }).catch(() => undefined);
        await release(() => tx.rollback());
        throw err;
      }
    },
    commit: () => release(() => tx.commit()),
    rollback: () => release(() => tx.rollback()),
  };
}
