// Applies the migrations to DATABASE_URL as `prisma migrate deploy` does — prisma/migrations/*/migration.sql to SQLite
// (file:…), prisma/postgres/migrations/*/migration.sql to PostgreSQL (postgresql://…) — recording each in
// _prisma_migrations the same way (so `prisma migrate status` and /api/readyz agree), without the Prisma CLI: the
// image carries no dev dependencies. Each migration runs as Prisma runs it, as one script; a failed one is recorded
// with its error and stops start-up, and start-up refuses to go on past a failed one until it is resolved. On
// PostgreSQL, replicas starting together take turns under Prisma's own advisory lock: one applies, the others then
// find nothing pending.
// Usage (from the server's directory): node scripts/image/migrate.mjs
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The key `prisma migrate` itself locks on PostgreSQL (schema engine), so this and the Prisma CLI exclude each other too. */
const PRISMA_ADVISORY_LOCK = 72707369;

const SQLITE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** The table as Prisma's schema engine creates it on PostgreSQL. */
const POSTGRES_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Prisma's spelling of a time in this table: ISO 8601 with milliseconds and +00:00. */
const timestamp = () => new Date().toISOString().replace("Z", "+00:00");

function sqliteFile(url) {
  const file = path.resolve(url.slice("file:".length));
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

function shippedMigrations(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

const checksum = (script) => createHash("sha256").update(script).digest("hex");
const readScript = (dir, name) => readFileSync(path.join(dir, name, "migration.sql"), "utf8");

/** What is left to apply, after refusing to go past a failed migration (as `prisma migrate deploy` refuses). */
function pendingMigrations(rows, dir) {
  const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null).map((r) => r.migration_name);
  if (failed.length > 0) throw new Error(`failed migrations must be resolved first (prisma migrate resolve): ${failed.join(", ")}`);
  const applied = new Set(rows.filter((r) => r.rolled_back_at === null).map((r) => r.migration_name));
  return shippedMigrations(dir).filter((name) => !applied.has(name));
}

function applySqlite(db, dir, name) {
  const script = readScript(dir, name);
  const id = randomUUID();
  db.prepare(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES (?, ?, ?, ?)`).run(
    id,
    checksum(script),
    name,
    timestamp(),
  );
  try {
    db.exec(script);
  } catch (err) {
    db.prepare(`UPDATE "_prisma_migrations" SET logs = ? WHERE id = ?`).run(String(err?.message ?? err), id);
    throw new Error(`migration ${name} failed: ${err?.message ?? err}`);
  }
  db.prepare(`UPDATE "_prisma_migrations" SET finished_at = ?, applied_steps_count = 1 WHERE id = ?`).run(timestamp(), id);
}

async function migrateSqlite(url) {
  const { default: Database } = await import("better-sqlite3");
  const dir = path.resolve("prisma", "migrations");
  const db = new Database(sqliteFile(url), { timeout: 5_000 });
  try {
    db.exec(SQLITE_MIGRATIONS_TABLE);
    const pending = pendingMigrations(
      db.prepare(`SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`).all(),
      dir,
    );
    for (const name of pending) applySqlite(db, dir, name);
    return pending;
  } finally {
    db.close();
  }
}

/** As Prisma applies one on PostgreSQL: the script in one simple query (so in one implicit transaction), then recorded. */
async function applyPostgres(client, dir, name) {
  const script = readScript(dir, name);
  const id = randomUUID();
  await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
    id,
    checksum(script),
    name,
  ]);
  try {
    await client.query(script);
  } catch (err) {
    await client.query(`UPDATE "_prisma_migrations" SET logs = $1 WHERE id = $2`, [String(err?.message ?? err), id]);
    throw new Error(`migration ${name} failed: ${err?.message ?? err}`);
  }
  await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
}

async function migratePostgres(url) {
  const { default: pg } = await import("pg");
  const dir = path.resolve("prisma", "postgres", "migrations");
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 });
  await client.connect().catch((err) => {
    // The host and port only: the URL may carry a password.
    throw new Error(`PostgreSQL at ${new URL(url).host} could not be reached: ${err?.message ?? err}`);
  });
  try {
    // Held for the whole run: a second replica waits here, then finds every migration recorded.
    await client.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK})`);
    await client.query(POSTGRES_MIGRATIONS_TABLE);
    const { rows } = await client.query(`SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`);
    const pending = pendingMigrations(rows, dir);
    for (const name of pending) await applyPostgres(client, dir, name);
    return pending;
  } finally {
    // Ending the session releases the lock too.
    await client.end().catch(() => undefined);
  }
}

/** The same dialects, and the same message for anything else, as lib/db/database-url.ts. */
function migrate(url) {
  if (url.startsWith("file:")) return migrateSqlite(url);
  if (/^postgres(ql)?:\/\//.test(url)) return migratePostgres(url);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  throw new Error(
    `DATABASE_URL: ${scheme ? `scheme "${scheme}:" is not supported` : "not a URL"}; use file:<path> (SQLite) or postgresql://user:password@host:port/database`,
  );
}

try {
  const applied = await migrate(process.env.DATABASE_URL ?? "file:./data/rollscope.db");
  const what = applied.length === 0 ? "no pending migrations" : `applied ${applied.join(", ")}`;
  console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), msg: `database: ${what}` }));
} catch (err) {
  console.error(
    JSON.stringify({ level: "fatal", time: new Date().toISOString(), msg: `Rollscope cannot start: database: ${err?.message ?? err}` }),
  );
  process.exit(1);
}
