import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { findFreePort } from "./free-port";

const run = promisify(execFile);
const BIN = process.env.ROLLSCOPE_PG_BIN ?? "/usr/lib/postgresql/15/bin";

/** A throw-away PostgreSQL server: its own data and socket directory in a temp dir, on a free port of 127.0.0.1. */
export interface PostgresServer {
  port: number;
  /** The URL of a database on this server (default `postgres`). */
  url(database?: string): string;
  /** Creates an empty database; returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl stop -m fast` (the database goes away; every connection is cut) … */
  pause(): Promise<void>;
  /** … and `pg_ctl start` again, on the same port and data. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export function postgresAvailable(): boolean {
  return existsSync(path.join(BIN, "initdb"));
}

/** PostgreSQL refuses to run as root: as root, every server command runs as the `postgres` user (Debian's package). */
async function asServerUser(command: string, args: string[]): Promise<void> {
  const root = process.getuid?.() === 0;
  const file = root ? "runuser" : path.join(BIN, command);
  const argv = root ? ["-u", "postgres", "--", path.join(BIN, command), ...args] : args;
  await run(file, argv, { timeout: 60_000 });
}

export async function startPostgres(): Promise<PostgresServer> {
  if (!postgresAvailable()) throw new Error(`PostgreSQL not found in ${BIN}: run scripts/ensure-system-deps.sh as root`);
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-pg-"));
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, "data");
  await asServerUser("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const port = await findFreePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => asServerUser("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "-t", "60", "start"]);
  const stopServer = () => asServerUser("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "60", "stop"]);
  await start();
  const url = (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  let running = true;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async pause() {
      await stopServer();
      running = false;
    },
    async resume() {
      await start();
      running = true;
    },
    async stop() {
      if (running) await stopServer().catch(() => undefined);
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
