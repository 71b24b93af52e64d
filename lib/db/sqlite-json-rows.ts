import "server-only";

/** DateTime exactly as Prisma stores it in SQLite, so Prisma's own reads and `lt`/`gt` filters (text order) agree. */
export function sqliteDateTime(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

/** A boolean as SQLite (and Prisma) store it. */
export function sqliteBool(v: boolean | null): 0 | 1 | null {
  return v === null ? null : v ? 1 : 0;
}

/*
 * Bulk writes take their rows as ONE JSON parameter, unpacked by SQLite's json_each (`value ->> 0`, …): Prisma
 * compiles every statement and every bound parameter in WebAssembly, so its model API (a query per row for upserts)
 * and even multi-row VALUES lists cost more CPU at fleet scale than everything else the server does.
 */
export function jsonRows(rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string {
  return JSON.stringify(rows);
}
