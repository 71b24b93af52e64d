import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { findFreePort, waitFor } from "./free-port";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface AppProcessOptions {
  kubeconfigPath: string;
  /** SQLite file; a fresh temp file by default. Reuse it across restarts to keep history. */
  databaseUrl?: string;
  port?: number;
  env?: Record<string, string>;
  /** Answers 2xx once the app is up; default /api/clusters (use a public path, /api/session, with sign-in). */
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

/** Runs the production build (`next start`) against the given kubeconfig, after applying migrations. */
export async function startAppProcess(opts: AppProcessOptions): Promise<AppProcess> {
  const port = opts.port ?? (await findFreePort());
  const databaseUrl = opts.databaseUrl ?? `file:${path.join(mkdtempSync(path.join(tmpdir(), "rollscope-db-")), "rollscope.db")}`;
  const env = {
    ...process.env,
    KUBECONFIG: opts.kubeconfigPath,
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    ...opts.env,
  };
  const migrate = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
    cwd: repoRoot,
    env,
    encoding: "utf8",
  });
  if (migrate.status !== 0) throw new Error(`prisma migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);

  let child: ChildProcess | undefined;
  let output = "";
  const url = `http://127.0.0.1:${port}`;
  const launch = async () => {
    // The production start script (bounded heap), exec'd so the child is the server itself.
    child = spawn("bash", [path.join(repoRoot, "scripts/start-server.sh"), "-p", String(port), "-H", "127.0.0.1"], {
      cwd: repoRoot,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const append = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", append);
    child.stderr?.on("data", append);
    const exited = new Promise<never>((_, reject) => child?.once("exit", (code) => reject(new Error(`app exited with ${code}:\n${output}`))));
    await Promise.race([
      waitFor("the app to answer", async () => (await fetch(`${url}${opts.readyPath ?? "/api/clusters"}`)).ok, 60_000, 200),
      exited,
    ]);
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
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
