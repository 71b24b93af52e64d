// Applies prisma/migrations/*/migration.sql to DATABASE_URL (SQLite) as `prisma migrate deploy` does, recording each
// in _prisma_migrations the same way (so `prisma migrate status` and /api/readyz agree), without the Prisma CLI: the
// image carries no dev dependencies. Each migration runs as Prisma runs it on SQLite, as one script; a failed one is
// recorded with its error and stops start-up, and start-up refuses to go on past a failed one until it is resolved.
// Usage (from the server's directory): node scripts/image/migrate.mjs
import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** Prisma's spelling of a time in this table: ISO 8601 with milliseconds and +00:00. */
const timestamp = () => new Date().toISOString().replace("Z", "+00:00");

function sqliteFile(url) {
  if (!url.startsWith("file:")) throw new Error(`DATABASE_URL must be a SQLite file: URL here, got "${url.split(":")[0]}:…"`);
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

function apply(db, dir, name) {
  const script = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
  const id = randomUUID();
  db.prepare(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES (?, ?, ?, ?)`).run(
    id,
    createHash("sha256").update(script).digest("hex"),
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

function migrate(url, dir) {
  const db = new Database(sqliteFile(url), { timeout: 5_000 });
  try {
    db.exec(MIGRATIONS_TABLE);
    const rows = db.prepare(`SELECT migration_name, finished_at, rolled_back_at FROM "_prisma_migrations"`).all();
    const failed = rows.filter((r) => r.finished_at === null && r.rolled_back_at === null).map((r) => r.migration_name);
    if (failed.length > 0) throw new Error(`failed migrations must be resolved first (prisma migrate resolve): ${failed.join(", ")}`);
    const applied = new Set(rows.filter((r) => r.rolled_back_at === null).map((r) => r.migration_name));
    const pending = shippedMigrations(dir).filter((name) => !applied.has(name));
    for (const name of pending) apply(db, dir, name);
    return pending;
  } finally {
    db.close();
  }
}

try {
  const applied = migrate(process.env.DATABASE_URL ?? "file:./data/rollscope.db", path.resolve("prisma", "migrations"));
  const what = applied.length === 0 ? "no pending migrations" : `applied ${applied.join(", ")}`;
  console.log(JSON.stringify({ level: "info", time: new Date().toISOString(), msg: `database: ${what}` }));
} catch (err) {
  console.error(JSON.stringify({ level: "fatal", time: new Date().toISOString(), msg: `Rollscope cannot start: database: ${err?.message ?? err}` }));
  process.exit(1);
}
