import { describe, expect, it } from "vitest";
import { DatabaseUrlError, databaseDialect, sqliteFileOf } from "./database-url";

describe("databaseDialect", () => {
  it("names SQLite for file: URLs and PostgreSQL for postgres(ql):// URLs", () => {
    expect(databaseDialect("file:./data/rollscope.db")).toBe("sqlite");
    expect(databaseDialect("postgresql://rollscope:pw@db:5432/rollscope")).toBe("postgresql");
    expect(databaseDialect("postgres://db/rollscope")).toBe("postgresql");
  });

  it("refuses anything else, saying what is accepted and without repeating the URL (it may hold a password)", () => {
    expect(() => databaseDialect("mysql://root:hunter2@db/rollscope")).toThrow(DatabaseUrlError);
    expect(() => databaseDialect("mysql://root:hunter2@db/rollscope")).toThrow(
      /scheme "mysql:" is not supported; use file:<path> \(SQLite\) or postgresql:/,
    );
    expect(() => databaseDialect("mysql://root:hunter2@db/rollscope")).not.toThrow(/hunter2/);
    expect(() => databaseDialect("rollscope.db")).toThrow(/DATABASE_URL: not a URL/);
  });
});

describe("sqliteFileOf", () => {
  it("gives the file a SQLite URL names, and no file for an in-memory database", () => {
    expect(sqliteFileOf("file:./data/rollscope.db")).toBe("./data/rollscope.db");
    expect(sqliteFileOf("file:/var/lib/rollscope/rollscope.db")).toBe("/var/lib/rollscope/rollscope.db");
    expect(sqliteFileOf("file::memory:")).toBeNull();
    expect(sqliteFileOf("file:")).toBeNull();
  });
});
