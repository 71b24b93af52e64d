import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { findFreePort, waitFor } from "./free-port";
import { freshDatabaseUrl, migrateDatabase } from "./test-database";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface AppProcessOptions {
  kubeconfigPath: string;
  /** The database; by default a fresh one of the suite's kind (SQLite, or PostgreSQL in integration-postgres). */
  databaseUrl?: string;
  port?: number;
  env?: Record<string, string>;
  /** The address to listen on (`-H`); null leaves it to the start script, as `npm start` does. Default 127.0.0.1. */
  hostname?: string | null;
  /** Answers 200 once the app is ready; default `/api/clusters` (use `/api/session` in modes proxy and oidc). */
  readyPath?: string;
}

export interface AppProcess {
  url: string;
  port: number;
  databaseUrl: string;
  /** The server's process id (for RSS readings); changes on restart. */
  pid(): number | undefined;
  logs(): string;
  stop(): Promise<void>;
  restart(): Promise<void>;
}

/** Throws unless a production build exists and is newer than every source file it is built from. */
export function assertFreshBuild(): void {
  const buildId = path.join(repoRoot, ".next/BUILD_ID");
  if (!existsSync(buildId)) throw new Error("no production build: run `npx next build` first");
  const newer = execFileSync(
    "find",
    ["app", "components", "lib", "instrumentation.ts", "-newer", buildId, "-type", "f", "-print", "-quit"],
    { cwd: repoRoot, encoding: "utf8" },
  ).trim();
  if (newer) throw new Error(`the production build is older than ${newer}: run \`npx next build\` first`);
}

/** Runs the production build (`next start`) against the given kubeconfig, after applying migrations. */
export async function startAppProcess(opts: AppProcessOptions): Promise<AppProcess> {
  const port = opts.port ?? (await findFreePort());
  const databaseUrl = opts.databaseUrl ?? (await freshDatabaseUrl());
  const env = {
    ...process.env,
    KUBECONFIG: opts.kubeconfigPath,
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    ...opts.env,
  };
  migrateDatabase(databaseUrl);

  let child: ChildProcess | undefined;
  let output = "";
  const url = `http://127.0.0.1:${port}`;
  const launch = async () => {
    // The production start script (bounded heap), exec'd so the child is the server itself.
    const hostname = opts.hostname === undefined ? "127.0.0.1" : opts.hostname;
    const args = ["-p", String(port), ...(hostname === null ? [] : ["-H", hostname])];
    child = spawn("bash", [path.join(repoRoot, "scripts/start-server.sh"), ...args], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const append = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const exited = new Promise<never>((_, reject) =>
      child?.once("exit", (code) => reject(new Error(`app exited with ${code}:\n${output}`))),
    );
    await Promise.race([
      waitFor("the app to answer", async () => (await fetch(`${url}${opts.readyPath ?? "/api/clusters"}`)).ok, 60_000, 200),
      exited,
    ]);
  };
  const stop = async () => {
    const c = child;
    // A child killed by a signal (a simulated crash) has a signalCode and no exitCode.
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const done = new Promise<void>((resolve) => c.once("exit", () => resolve()));
    c.kill("SIGTERM");
    const timer = setTimeout(() => c.kill("SIGKILL"), 10_000);
    await done;
    clearTimeout(timer);
  };
  await launch();
  return {
    url,
    port,
    databaseUrl,
    pid: () => child?.pid,
    logs: () => output,
    stop,
    async restart() {
      await stop();
      await launch();
    },
  };
}
