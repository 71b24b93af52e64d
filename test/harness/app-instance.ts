import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { findFreePort, waitFor } from "./free-port";
import { createMigratedDatabase } from "./test-database";
import { writeRollscopeConfig, type TestConfigOptions } from "./rollscope-config";

const repoRoot = path.resolve(import.meta.dirname, "../..");

export interface AppInstanceOptions extends TestConfigOptions {
  /** Extra environment, e.g. ROLLSCOPE_SESSION_SECRET. */
  env?: Record<string, string>;
  port?: number;
}

export interface AppInstance {
  url: string;
  port: number;
  configPath: string;
  databaseUrl: string;
  logs(): string;
  stop(): Promise<void>;
}

/**
 * One more Rollscope with its own config: `prisma migrate deploy` on a fresh SQLite file, then `npm start`'s script
 * (scripts/start-server.sh) on a free 127.0.0.1 port, against an already running simulator's kubeconfig. Ready when the public `/api/session` answers
 * (in modes proxy and oidc every other route wants a user). Needs a production build (`next build`).
 */
export async function startAppInstance(options: AppInstanceOptions): Promise<AppInstance> {
  const configPath = writeRollscopeConfig(options);
  const databaseUrl = createMigratedDatabase();
  const port = options.port ?? (await findFreePort());
  const url = `http://127.0.0.1:${port}`;
  // As `npm start` starts it (bounded heap, 65-s keep-alive: Playwright's request client reuses idle connections).
  const child: ChildProcess = spawn("bash", [path.join(repoRoot, "scripts/start-server.sh"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      KUBECONFIG: options.kubeconfigPath,
      ROLLSCOPE_CONFIG: configPath,
      DATABASE_URL: databaseUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const append = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const died = new Promise<never>((_, reject) =>
    child.once("exit", (code) => reject(new Error(`the app exited with ${code}:\n${output}`))),
  );
  try {
    await Promise.race([waitFor("the app to answer /api/session", async () => (await fetch(`${url}/api/session`)).ok, 60_000, 200), died]);
  } catch (err) {
    await stop();
    throw err;
  }
  died.catch(() => undefined);
  return { url, port, configPath, databaseUrl, logs: () => output, stop };
}
