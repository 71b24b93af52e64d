import "server-only";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";

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
 */
export function createSqliteAdapter(url: string): SqlDriverAdapterFactory {
  const inner = new PrismaBetterSQLite3({ url, timeout: BUSY_TIMEOUT_MS });
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    async connect() {
      const adapter = await inner.connect();
      await enableWriteAheadLog(adapter);
      return withReleasingTransactions(adapter);
    },
  };
}

async function enableWriteAheadLog(adapter: SqlDriverAdapter): Promise<void> {
  try {
    // Persistent in the file; a no-op once set. Switching needs a moment without other connections' locks.
    await adapter.executeScript("PRAGMA journal_mode = WAL");
  } catch (err) {
    console.warn("database: could not switch to write-ahead logging; readers will wait for writers", err);
  }
}

function withReleasingTransactions(adapter: SqlDriverAdapter): SqlDriverAdapter {
  // The adapter's methods live on its prototype: delegate explicitly rather than spread.
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query) => adapter.queryRaw(query),
    executeRaw: (query) => adapter.executeRaw(query),
    executeScript: (script) => adapter.executeScript(script),
    getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo!() : undefined,
    dispose: () => adapter.dispose(),
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
