import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig, type TestConfigOptions } from "@/test/harness/rollscope-config";
import { startActionsSimulation } from "@/test/harness/rollout-scenario";
import { startAppProcess } from "@/test/harness/app-process";
import { findFreePort } from "@/test/harness/free-port";

/*
 * Issue 12, item 10: an invalid configuration must stop start-up with a message naming the field, not leave a
 * server listening that answers 500. Checked through `npm start`'s script and through a bare `next start` (the
 * instrumentation hook), with the built app.
 */

const repoRoot = path.resolve(import.meta.dirname, "../../..");
let sim: SimulationHandle;

beforeAll(async () => {
  sim = await startActionsSimulation();
}, 60_000);

afterAll(async () => {
  await sim?.stop();
});

const OIDC = { issuer: "http://127.0.0.1:9/realms/none", clientId: "rollscope" };

function config(overrides: Partial<TestConfigOptions> = {}): string {
  return writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }], ...overrides });
}

/** `npm start`'s server script must exit non-zero; resolves to its output. */
async function startScriptFails(configPath: string, env: Record<string, string> = {}): Promise<string> {
  const started = startAppProcess({
    kubeconfigPath: sim.kubeconfigPath,
    readyPath: "/api/session",
    env: { ROLLSCOPE_CONFIG: configPath, ...env },
  });
  const error = await started.then(
    async (app) => {
      await app.stop();
      return new Error("the app started");
    },
    (err: Error) => err,
  );
  expect(error.message).toMatch(/^app exited with [1-9]/);
  return error.message;
}

/** A bare `next start` with this config: its exit code and output, or null when it is still running after the bound. */
function nextStart(configPath: string, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return findFreePort().then(
    (port) =>
      new Promise((resolve) => {
        const child = spawn(
          process.execPath,
          [path.join(repoRoot, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
          {
            cwd: repoRoot,
            env: {
              ...process.env,
              ROLLSCOPE_CONFIG: configPath,
              DATABASE_URL: createMigratedDatabase(),
              NEXT_TELEMETRY_DISABLED: "1",
              ...env,
            },
            stdio: ["ignore", "pipe", "pipe"],
          },
        );
        let output = "";
        child.stdout.on("data", (c: Buffer) => (output += c.toString()));
        child.stderr.on("data", (c: Buffer) => (output += c.toString()));
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve({ code: null, output });
        }, 45_000);
        child.once("exit", (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      }),
  );
}

describe("an invalid configuration stops start-up", () => {
  it("a bad field: the script exits naming it, before listening", async () => {
    const output = await startScriptFails(config({ clusters: [{ name: "Prod_EU", context: "prod" }] }));
    expect(output).toContain("clusters.0.name");
    expect(output).not.toContain("Ready in");
  }, 90_000);

  it("mode oidc without a session secret: the script exits naming auth.sessionSecret", async () => {
    const output = await startScriptFails(config({ auth: { mode: "oidc", baseUrl: "http://127.0.0.1:1", oidc: OIDC } }));
    expect(output).toContain("auth.sessionSecret");
  }, 90_000);

  it("an unreadable OIDC client secret file: the script exits naming auth.oidc.clientSecretFile", async () => {
    const output = await startScriptFails(
      config({
        auth: { mode: "oidc", baseUrl: "http://127.0.0.1:1", oidc: { ...OIDC, clientSecretFile: "/nonexistent/rollscope-client-secret" } },
      }),
      { ROLLSCOPE_SESSION_SECRET: "s".repeat(40) },
    );
    expect(output).toContain("auth.oidc.clientSecretFile");
  }, 90_000);

  it("a cluster whose kubeconfig cannot be loaded: the script exits naming the cluster's kubeconfig", async () => {
    const missingFile = await startScriptFails(config({ kubeconfigPath: "/nonexistent/kubeconfig" }));
    expect(missingFile).toContain("clusters.0.kubeconfig (cluster prod)");
    const missingContext = await startScriptFails(config({ clusters: [{ name: "prod", context: "no-such-context" }] }));
    expect(missingContext).toContain("clusters.0.kubeconfig (cluster prod)");
  }, 120_000);

  it("a bare `next start` exits too, through the instrumentation hook", async () => {
    const noSecret = await nextStart(config({ auth: { mode: "oidc", baseUrl: "http://127.0.0.1:1", oidc: OIDC } }));
    expect(noSecret.code).not.toBeNull();
    expect(noSecret.code).not.toBe(0);
    expect(noSecret.output).toContain("auth.sessionSecret");
    const noKubeconfig = await nextStart(config({ kubeconfigPath: "/nonexistent/kubeconfig" }));
    expect(noKubeconfig.code).not.toBeNull();
    expect(noKubeconfig.code).not.toBe(0);
    expect(noKubeconfig.output).toContain("clusters.0.kubeconfig");
  }, 120_000);
});
