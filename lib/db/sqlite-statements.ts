import "server-only";
import type BetterSqlite3 from "better-sqlite3";

/** How many prepared statements a connection keeps: Prisma's statements differ mostly in their `IN (…)` lists. */
const KEPT_STATEMENTS = 256;

/**
 * What Prisma's better-sqlite3 adapter (6.19) does with a statement, and all a kept one has to answer: it prepares
 * every statement it runs (`prepare(sql).bind(args)`, then `run()`, or `reader`, `columns()` and `raw().all()`;
 * `prepare("BEGIN").run()` for a transaction).
 */
interface AdapterStatement {
  readonly reader: boolean;
  bind(args: unknown[]): AdapterStatement;
  run(): BetterSqlite3.RunResult;
  columns(): BetterSqlite3.ColumnDefinition[];
  raw(): { all(): unknown[] };
}

/**
 * Keeps a connection's prepared statements and reuses them by their SQL text (the most recently used
 * {@link KEPT_STATEMENTS}). Prisma's adapter prepares every statement it runs, and SQLite compiles each one again: in a
 * CPU profile at 5,000 Rollouts, 27 ms of the event loop every second went to `prepare` (the recorder's upserts, the
 * history reads), up to 33 ms in one turn. A statement the adapter binds can be bound only once, so the adapter gets a
 * view of the kept statement that passes its arguments on each run instead. The schema does not change while the
 * server runs (migrations run before it serves), so a kept reader's columns are read once too.
 */
export function reusePreparedStatements(db: BetterSqlite3.Database, capacity = KEPT_STATEMENTS): void {
  const prepare = db.prepare.bind(db);
  const kept = new Map<string, BetterSqlite3.Statement>();
  const statementFor = (sql: string): BetterSqlite3.Statement => {
    const found = kept.get(sql);
    if (found) {
      kept.delete(sql); // to the end: the most recently used
      kept.set(sql, found);
      return found;
    }
    const statement = prepare(sql); // a statement that does not compile throws here and is not kept
    kept.set(sql, statement);
    if (kept.size > capacity) kept.delete(kept.keys().next().value!);
    return statement;
  };
  // A reader's columns, read once: the adapter asks at every run, and better-sqlite3 builds the list anew each time.
  const columnsOf = new WeakMap<BetterSqlite3.Statement, BetterSqlite3.ColumnDefinition[]>();
  const columns = (statement: BetterSqlite3.Statement) => {
    let found = columnsOf.get(statement);
    if (!found) columnsOf.set(statement, (found = statement.columns()));
    return found;
  };
  const view = (statement: BetterSqlite3.Statement, args: unknown[]): AdapterStatement => ({
    reader: statement.reader,
    bind: (bound) => view(statement, bound),
    run: () => statement.run(args),
    columns: () => columns(statement),
    raw: () => ({ all: () => statement.raw(true).all(args) }),
  });
  (db as { prepare: (sql: string) => AdapterStatement }).prepare = (sql) => view(statementFor(sql), []);
}
