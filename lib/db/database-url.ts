import { mkdirSync } from "node:fs";
import path from "node:path";

/** The databases Rollscope runs on: SQLite (a file, one process) or PostgreSQL (shared by several replicas). */
export type DatabaseDialect = "sqlite" | "postgresql";

/** A DATABASE_URL that names no database Rollscope can use; the message says what is accepted. */
export class DatabaseUrlError extends Error {}

/** Which database a URL names; throws a DatabaseUrlError for anything but `file:…` and `postgres(ql)://…`. */
export function databaseDialect(url: string): DatabaseDialect {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new DatabaseUrlError(
    `DATABASE_URL: ${scheme ? `scheme "${scheme}:" is not supported` : "not a URL"}; use file:<path> (SQLite) or postgresql://user:password@host:port/database`,
  );
}

/** The file a SQLite URL (`file:<path>`) names; null for an in-memory database. */
export function sqliteFileOf(url: string): string | null {
  const file = url.replace(/^file:/, "");
  return file === ":memory:" || file === "" ? null : file;
}

/** The database the app and `prisma migrate deploy` share; DATABASE_URL overrides the SQLite file. */
export function databaseUrl(): string {
  const url = process.env.DATABASE_URL ?? "file:./data/rollscope.db";
  const file = databaseDialect(url) === "sqlite" ? sqliteFileOf(url) : null;
  if (file !== null) mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return url;
}
