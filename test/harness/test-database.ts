import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

const repoRoot = path.resolve(import.meta.dirname, "../..");

/** Which database the integration project runs on: the `integration-postgres` project sets it (vitest.config.ts). */
export function testDatabaseDialect(): "sqlite" | "postgresql" {
  return process.env.ROLLSCOPE_TEST_DATABASE === "postgresql" ? "postgresql" : "sqlite";
}

/** A new, empty SQLite file in its own temporary directory, as `file:` URL. */
function freshSqliteUrl(): string {
  return `file:${path.join(mkdtempSync(path.join(tmpdir(), "rollscope-test-db-")), "rollscope.db")}`;
}

/** An empty database: a new SQLite file, or a new database on the suite's PostgreSQL server (its global setup). */
export async function freshDatabaseUrl(): Promise<string> {
  if (testDatabaseDialect() === "sqlite") return freshSqliteUrl();
  // Loaded only here: the harness also runs outside vitest (the benchmark, Playwright's global setup).
  const { inject } = await import("vitest");
  const server = inject("postgresUrl");
  const name = `rollscope_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: `${server}/postgres` });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  return `${server}/${name}`;
}

/** `prisma migrate deploy` on the given database, as `npm start` runs it. */
export function migrateDatabase(url: string): void {
  const result = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: url },
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`prisma migrate deploy failed:\n${result.stdout}\n${result.stderr}`);
}

/** A fresh database with every migration applied; sets DATABASE_URL for this process. */
export async function createTestDatabase(): Promise<string> {
  const url = await freshDatabaseUrl();
  migrateDatabase(url);
  process.env.DATABASE_URL = url;
  return url;
}

/**
 * A fresh SQLite file with every migration applied, as `file:` URL, for an app process of its own (Playwright's
 * app instances, the benchmark, the real-cluster suites): what `npm start` would find after its migration.
 */
export function createMigratedDatabase(): string {
  const url = freshSqliteUrl();
  migrateDatabase(url);
  return url;
}
