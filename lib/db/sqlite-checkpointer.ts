import "server-only";
import { open } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

/** How often the checkpointer copies the write-ahead log into the database file. */
const CHECKPOINT_INTERVAL_MS = 1_000;

/**
 * The checkpointer's thread: its own connection to the database, which every `intervalMs` copies what the log holds
 * into the database file (a PASSIVE checkpoint: it never waits for, nor blocks, the server's reads and writes), and
 * posts the message of a checkpoint that failed. CommonJS source, evaluated as the thread's script: the bundler
 * never sees it, and better-sqlite3 is loaded from the path the server resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true });
let lastError = null;
setInterval(() => {
  let error = null;
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (err) {
    error = String(err && err.message ? err.message : err);
  }
  // Said once per kind of failure (a busy or full disk), not every second.
  if (error && error !== lastError) parentPort.postMessage(error);
  lastError = error;
}, workerData.intervalMs);
`;

/** The checkpointer of one SQLite database (see {@link startSqliteCheckpointer}). */
export interface SqliteCheckpointer {
  stop(): Promise<void>;
}

/**
 * Moves SQLite's checkpoints off the event loop. A checkpoint copies the pages the write-ahead log collected into the
 * database file and syncs both; SQLite runs one inside the commit that makes the log reach 1,000 pages, on the
 * connection that committed. The server's only connection is on the event loop (better-sqlite3 is synchronous), so
 * every request and live stream waited for it: at 5,000 Rollouts the recorder's event upserts fill 1,000 pages about
 * every 2 s, and each such commit held the loop for 80 ms of CPU (a CPU profile of `npm run bench`).
 *
 * The server's connection then runs with automatic checkpoints off (`PRAGMA wal_autocheckpoint = 0`), and this thread
 * checkpoints every second. `onFailure` is called when the thread cannot start or dies: the caller turns automatic
 * checkpoints back on, so the log never grows without bound.
 */
export function startSqliteCheckpointer(file: string, onFailure: (err: unknown) => void): SqliteCheckpointer {
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    onFailure(err);
  };
  let modulePath: string;
  try {
    // The server runs from the application's folder (scripts/start-server.sh), whose node_modules holds better-sqlite3.
    modulePath = createRequire(path.join(process.cwd(), "package.json")).resolve("better-sqlite3");
  } catch (err) {
    fail(err);
    return { stop: async () => undefined };
  }
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, modulePath, intervalMs: CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  let stopping = false;
  worker.on("message", (error: string) => console.warn(`database: a checkpoint of ${file} failed: ${error}`));
  worker.on("error", fail);
  worker.on("exit", (code) => {
    if (!stopping) fail(new Error(`the checkpointer's thread exited with code ${code}`));
  });
  return {
    async stop() {
      stopping = true;
      await worker.terminate();
    },
  };
}

/**
 * Syncs the database's write-ahead log to disk, on libuv's thread pool (not the event loop): every transaction
 * committed before the call survives a power loss or an operating-system crash once it resolves. With
 * `synchronous = NORMAL` a commit is safe against the server's own crash, not against those; the audit log asks for
 * this after each of its writes.
 */
export async function syncWriteAheadLog(file: string): Promise<void> {
  let handle;
  try {
    handle = await open(`${file}-wal`, "r");
  } catch (err) {
    // No log file: nothing was written since the last checkpoint reset it, and the checkpoint synced the database.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
