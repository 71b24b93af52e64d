import "server-only";
import { Debug } from "@prisma/client/runtime/client";
import type { SqlDriverAdapterFactory } from "@prisma/client/runtime/client";

type SqlDriverAdapter = Awaited<ReturnType<SqlDriverAdapterFactory["connect"]>>;
type Transaction = Awaited<ReturnType<SqlDriverAdapter["startTransaction"]>>;
type SqlQuery = Parameters<Transaction["executeRaw"]>[0];

/** How many debug calls Prisma keeps the arguments of (`MAX_ARGS_HISTORY` in its debug module, one per copy). */
const PRISMA_DEBUG_HISTORY = 100;

/** A query whose arguments hold this many characters or more pushes the client's debug history out when done. */
const LARGE_ARGUMENTS_CHARS = 16 * 1024;

const placeholder = Debug("rollscope:db:forget-query-arguments");

/**
 * Pushes the Prisma client's debug history out with placeholders. The client logs every raw query with its
 * parameters (`prisma.$executeRaw(sql, values)`) into a history of its last 100 debug calls, kept for the text of
 * its bug reports whether or not DEBUG is set. Left alone when someone turned Prisma's debug output on.
 */
function forgetClientDebugHistory(): void {
  if (Debug.enabled("prisma:client")) return;
  for (let i = 0; i < PRISMA_DEBUG_HISTORY; i++) placeholder("-");
}

function argumentChars(args: readonly unknown[]): number {
  let chars = 0;
  for (const arg of args) if (typeof arg === "string") chars += arg.length;
  return chars;
}

/**
 * Runs a query on a copy of it whose arguments are emptied once it is done: the driver adapter keeps the query
 * object of each of its last 100 debug calls (see {@link forgetQueryArguments}).
 */
async function runForgetting<T>(run: (query: SqlQuery) => Promise<T>, query: SqlQuery): Promise<T> {
  const own: SqlQuery = { ...query, args: [...query.args] };
  try {
    return await run(own);
  } finally {
    const large = argumentChars(own.args) >= LARGE_ARGUMENTS_CHARS;
    own.args.length = 0;
    if (large) forgetClientDebugHistory();
  }
}

function forgettingTransaction(tx: Transaction): Transaction {
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (query) => runForgetting((q) => tx.queryRaw(q), query),
    executeRaw: (query) => runForgetting((q) => tx.executeRaw(q), query),
    commit: () => tx.commit(),
    rollback: () => tx.rollback(),
  };
}

/**
 * A driver adapter that keeps no query's arguments alive after the query. Prisma's debug modules keep the
 * arguments of their last 100 calls even with DEBUG unset: the client each raw query's parameters, the driver
 * adapter each query object. Rollscope's bulk writes pass their rows as one JSON parameter (a cluster's scrape, a
 * recorder batch: up to a megabyte each), so those histories held tens of megabytes of old rows — at 5,000 Rollouts
 * 16 MB, a fifth of what the whole fleet's watch state kept (heap snapshot of the bench's memory part).
 */
export function forgetQueryArguments(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      // The adapter's methods live on its prototype: delegate explicitly rather than spread.
      const adapter = await factory.connect();
      return {
        provider: adapter.provider,
        adapterName: adapter.adapterName,
        queryRaw: (query) => runForgetting((q) => adapter.queryRaw(q), query),
        executeRaw: (query) => runForgetting((q) => adapter.executeRaw(q), query),
        executeScript: (script) => adapter.executeScript(script),
        getConnectionInfo: adapter.getConnectionInfo ? () => adapter.getConnectionInfo!() : undefined,
        dispose: () => adapter.dispose(),
        startTransaction: async (isolationLevel) => forgettingTransaction(await adapter.startTransaction(isolationLevel)),
      };
    },
  };
}
