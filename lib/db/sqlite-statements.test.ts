import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSqliteAdapter } from "./sqlite-adapter";
import { reusePreparedStatements } from "./sqlite-statements";

const dbs: Database.Database[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  vi.restoreAllMocks();
});

/** An in-memory database as Prisma's adapter opens it, with a table of three rows and its prepares counted. */
function database(capacity?: number) {
  const db = new Database(":memory:");
  dbs.push(db);
  db.defaultSafeIntegers(true);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  const compiled = vi.spyOn(db, "prepare");
  reusePreparedStatements(db, capacity);
  return { db, compiled };
}

// The adapter's own calls: `prepare(sql).bind(args)`, then `run()`, or `reader`, `columns()` and `raw().all()`.
type AdapterView = {
  reader: boolean;
  bind(args: unknown[]): AdapterView;
  run(): Database.RunResult;
  columns(): Database.ColumnDefinition[];
  raw(): { all(): unknown[] };
};
const prepared = (db: Database.Database, sql: string) => db.prepare(sql) as unknown as AdapterView;

describe("prepared statements kept per connection", () => {
  it("compiles a statement once and answers each run with its own arguments", () => {
    const { db, compiled } = database();
    const byId = "SELECT id, name FROM t WHERE id = ?";
    expect(prepared(db, byId).bind([1n]).raw().all()).toEqual([[1n, "a"]]);
    const second = prepared(db, byId).bind([3n]);
    expect(second.reader).toBe(true);
    expect(second.columns().map((c) => c.name)).toEqual(["id", "name"]);
    expect(prepared(db, byId).bind([2n]).columns()).toBe(second.columns()); // read once
    expect(second.raw().all()).toEqual([[3n, "c"]]);
    const update = prepared(db, "UPDATE t SET name = ? WHERE id = ?");
    expect(update.reader).toBe(false);
    expect(update.bind(["z", 2n]).run().changes).toBe(1);
    expect(prepared(db, "UPDATE t SET name = ? WHERE id = ?").bind(["y", 1n]).run().changes).toBe(1);
    expect(prepared(db, "SELECT name FROM t ORDER BY id").bind([]).raw().all()).toEqual([["y"], ["z"], ["c"]]);
    // Two statements, one write and one read, compiled once each and again for nothing.
    expect(compiled).toHaveBeenCalledTimes(3);
  });

  it("runs a statement without arguments, as a transaction's BEGIN", () => {
    const { db } = database();
    prepared(db, "BEGIN").run();
    prepared(db, "DELETE FROM t").bind([]).run();
    prepared(db, "ROLLBACK").run();
    prepared(db, "BEGIN").run();
    prepared(db, "COMMIT").run();
    expect(prepared(db, "SELECT count(*) FROM t").bind([]).raw().all()).toEqual([[3n]]);
  });

  it("keeps the most recently used statements up to its capacity, and never one that does not compile", () => {
    const { db, compiled } = database(2);
    const select = (i: number) => prepared(db, `SELECT ${i}`).bind([]).raw().all();
    select(1);
    select(2);
    select(1); // 1 is now the most recent: 2 goes when 3 comes
    select(3);
    select(1);
    expect(compiled).toHaveBeenCalledTimes(3);
    select(2);
    expect(compiled).toHaveBeenCalledTimes(4);
    expect(() => prepared(db, "SELEKT 1")).toThrow(/syntax error/);
    expect(() => prepared(db, "SELEKT 1")).toThrow(/syntax error/);
    expect(compiled).toHaveBeenCalledTimes(6);
  });

  it("is what the server's SQLite adapter runs its queries through", async () => {
    const compiled = vi.spyOn(Database.prototype, "prepare");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "rollscope-statements-")), "db.sqlite");
    const adapter = await createSqliteAdapter(`file:${file}`).connect();
    try {
      await adapter.executeScript("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
      const insert = { sql: "INSERT INTO t (name) VALUES (?)", argTypes: [{ scalarType: "string" as const, arity: "scalar" as const }] };
      for (const name of ["a", "b", "c"]) await adapter.executeRaw({ ...insert, args: [name] });
      const select = { sql: "SELECT name FROM t ORDER BY id", args: [], argTypes: [] };
      await adapter.queryRaw(select);
      expect((await adapter.queryRaw(select)).rows).toEqual([["a"], ["b"], ["c"]]);
      const times = (sql: string) => compiled.mock.calls.filter(([text]) => text === sql).length;
      expect(times(insert.sql)).toBe(1);
      expect(times(select.sql)).toBe(1);
    } finally {
      await adapter.dispose();
    }
  });
});
