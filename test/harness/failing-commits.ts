import Database from "better-sqlite3";

/** The file path of a `file:` DATABASE_URL. */
export function databaseFile(databaseUrl: string): string {
  return databaseUrl.replace(/^file:/, "");
}

export interface CommitFailure {
  /** From now on every transaction that stores a RolloutSample fails at COMMIT, until `stop()`. */
  start(): void;
  stop(): void;
  close(): void;
}

/**
 * Makes the recorder's writes fail the way a full disk makes them fail: at COMMIT, when SQLite writes the pages out.
 * A trigger (installed from a second connection, as an operator could) adds a row that breaks a deferred foreign
 * key to every transaction that stores a RolloutSample while the switch row exists; SQLite checks deferred keys at
 * COMMIT, so the statements succeed and the COMMIT fails. Nothing in the app knows about it.
 */
export function installCommitFailure(databaseUrl: string): CommitFailure {
  const db = new Database(databaseFile(databaseUrl), { timeout: 10_000 });
  db.exec(`
    CREATE TABLE IF NOT EXISTS "test_disk_full" ("on" INTEGER);
    CREATE TABLE IF NOT EXISTS "test_parent" ("id" INTEGER PRIMARY KEY);
    CREATE TABLE IF NOT EXISTS "test_child" ("parent" INTEGER REFERENCES "test_parent" ("id") DEFERRABLE INITIALLY DEFERRED);
    CREATE TRIGGER IF NOT EXISTS "test_fail_commit" AFTER INSERT ON "RolloutSample"
      WHEN EXISTS (SELECT 1 FROM "test_disk_full")
      BEGIN INSERT INTO "test_child" ("parent") VALUES (-1); END;
  `);
  return {
    start: () => void db.prepare(`INSERT INTO "test_disk_full" ("on") VALUES (1)`).run(),
    stop: () => void db.prepare(`DELETE FROM "test_disk_full"`).run(),
    close: () => db.close(),
  };
}
