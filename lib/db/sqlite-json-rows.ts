import "server-only";
import type { DatabaseDialect } from "./database-url";
import { Prisma } from "./generated/client";

/** DateTime exactly as Prisma stores it in SQLite, so Prisma's own reads and `lt`/`gt` filters (text order) agree. */
export function sqliteDateTime(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

/** A boolean as SQLite (and Prisma) store it. */
export function sqliteBool(v: boolean | null): 0 | 1 | null {
  return v === null ? null : v ? 1 : 0;
}

/*
 * Bulk writes take their rows as ONE JSON parameter, unpacked by SQLite's json_each (`value ->> 0`, …) or
 * PostgreSQL's jsonb_array_elements: Prisma compiles every statement and every bound parameter in WebAssembly, so its
 * model API (a query per row for upserts) and even multi-row VALUES lists cost more CPU at fleet scale than
 * everything else the server does. The rows are encoded the same for both (dates as UTC text, booleans as 0/1).
 */
export function jsonRows(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return JSON.stringify(rows);
}

/** What a JSON row's field becomes in its table column. */
export type JsonColumn = "text" | "int" | "bigint" | "float" | "bool" | "timestamp";

/** PostgreSQL converts nothing implicitly from the text `->>` yields; SQLite's columns take it as it is. */
const POSTGRES_CASTS: Record<JsonColumn, string> = {
  text: "",
  int: "::integer",
  bigint: "::bigint",
  float: "::double precision",
  bool: "::integer::boolean",
  timestamp: "::timestamp(3)",
};

/**
 * `SELECT <each column> FROM <the rows> WHERE true ORDER BY <their order>`, for `INSERT INTO t (…) <this>`.
 * (`WHERE true` is SQLite's required disambiguation between INSERT … SELECT and an ON CONFLICT clause.)
 */
export function selectJsonRows(dialect: DatabaseDialect, rows: string, columns: readonly JsonColumn[]): Prisma.Sql {
  if (dialect === "sqlite") {
    const fields = columns.map((_, i) => `value ->> ${i}`).join(", ");
    return Prisma.sql`SELECT ${Prisma.raw(fields)} FROM json_each(${rows}) WHERE true ORDER BY key`;
  }
  const fields = columns.map((type, i) => `(value ->> ${i})${POSTGRES_CASTS[type]}`).join(", ");
  return Prisma.sql`SELECT ${Prisma.raw(fields)} FROM jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS r(value, key) WHERE true ORDER BY key`;
}

/**
 * The rows as a derived table `r` whose columns have the given names, plus `position` (their order), for an
 * `INSERT … SELECT` that joins them with other tables.
 */
export function jsonRowsTable(
  dialect: DatabaseDialect,
  rows: string,
  columns: ReadonlyArray<readonly [name: string, type: JsonColumn]>,
): Prisma.Sql {
  if (dialect === "sqlite") {
    const fields = columns.map(([name], i) => `value ->> ${i} AS "${name}"`).join(", ");
    return Prisma.sql`(SELECT ${Prisma.raw(fields)}, key AS "position" FROM json_each(${rows})) r`;
  }
  const fields = columns.map(([name, type], i) => `(value ->> ${i})${POSTGRES_CASTS[type]} AS "${name}"`).join(", ");
  return Prisma.sql`(SELECT ${Prisma.raw(fields)}, e.key AS "position" FROM jsonb_array_elements(${rows}::jsonb) WITH ORDINALITY AS e(value, key)) r`;
}
