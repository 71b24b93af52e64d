/**
 * prisma/postgres/schema.prisma is generated from prisma/schema.prisma (the one place models are edited): Prisma 6
 * takes one provider per schema file, and a client generated for SQLite refuses the PostgreSQL adapter.
 * Usage: npx tsx scripts/postgres-schema.ts   (a unit test fails while the committed copy is stale)
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(repoRoot, "prisma/schema.prisma");
export const POSTGRES_SCHEMA = path.join(repoRoot, "prisma/postgres/schema.prisma");

const HEADER = "// GENERATED from prisma/schema.prisma by scripts/postgres-schema.ts: edit that file, then run the script.\n\n";

function replaceOnce(text: string, from: RegExp, to: string): string {
  if (!from.test(text)) throw new Error(`prisma/schema.prisma: expected ${from} in the generator or datasource block`);
  return text.replace(from, to);
}

/** The same models for PostgreSQL: its provider, the URL from the environment, its own generated client. */
export function toPostgresSchema(sqliteSchema: string): string {
  let schema = replaceOnce(sqliteSchema, /output\s*=\s*"\.\.\/lib\/db\/generated"/, 'output     = "../../lib/db/generated-postgres"');
  schema = replaceOnce(schema, /provider\s*=\s*"sqlite"/, 'provider = "postgresql"');
  schema = replaceOnce(schema, /url\s*=\s*"file:[^"]*"/, 'url      = env("DATABASE_URL")');
  return HEADER + schema;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(POSTGRES_SCHEMA, toPostgresSchema(readFileSync(SQLITE_SCHEMA, "utf8")));
  console.log(`wrote ${path.relative(repoRoot, POSTGRES_SCHEMA)}`);
}
