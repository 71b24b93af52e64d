import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import type { ClusterStateView } from "@/lib/contracts/clusters";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { findFreePort, waitFor } from "@/test/harness/free-port";

/*
 * Secrets the server holds must never reach the browser. The built app (`next start`) watches a simulated cluster
 * plus two clusters whose kubeconfig entries carry secrets into error paths:
 *   leaky-url   server https://admin:<password>@127.0.0.1:<closed port>: every request fails naming its URL
 *   leaky-exec  a user whose exec credential plugin fails, printing a secret (and its env's API token) on stderr
 * and Prometheus servers configured with credentials (user-info in the URL; basic auth) that cannot be reached.
 * Every API response, the first seconds of the live stream and every page's HTML are scanned for each secret.
 * Needs a production build (`npx next build`), as the e2e tests do.
 */

const SECRETS = {
  urlPassword: "url-pw-4c1f9a7e",
  urlUserToken: "leaky-token-82d6b3f0",
  execOutput: "exec-output-e95c0d21",
  execEnvToken: "exec-env-token-3ab7f4c6",
  promUrlPassword: "prom-url-pw-61e2d8b9",
  promBasicPassword: "prom-basic-pw-0f4a93c5",
};

let sim: SimulationHandle;
let app: AppProcess;
let dir = "";
/** Every secret to look for: the seeded ones and the simulator's own token for Rollscope. */
let secrets: string[] = [];

function writeExecPlugin(file: string): void {
  writeFileSync(file, `#!/bin/sh\necho "token refresh failed: cached credential ${SECRETS.execOutput}, key $API_TOKEN" >&2\nexit 1\n`);
  chmodSync(file, 0o755);
}

/** The simulator's kubeconfig plus the two leaky clusters' entries. */
function writeLeakyKubeconfig(file: string, closedPort: number, execPlugin: string): void {
  const kubeconfig = parse(readFileSync(sim.kubeconfigPath, "utf8")) as Record<string, Array<Record<string, unknown>>>;
  const simServer = (kubeconfig.clusters[0].cluster as { server: string }).server;
  kubeconfig.clusters.push(
    {
      name: "leaky-url",
      cluster: { server: `https://admin:${SECRETS.urlPassword}@127.0.0.1:${closedPort}`, "insecure-skip-tls-verify": true },
    },
    { name: "leaky-exec", cluster: { server: simServer, "insecure-skip-tls-verify": true } },
  );
  kubeconfig.users.push(
    { name: "leaky-url", user: { token: SECRETS.urlUserToken } },
    {
      name: "leaky-exec",
      user: {
        exec: {
          apiVersion: "client.authentication.k8s.io/v1",
          command: execPlugin,
          interactiveMode: "Never",
          env: [{ name: "API_TOKEN", value: SECRETS.execEnvToken }],
        },
      },
    },
  );
  kubeconfig.contexts.push(
    { name: "leaky-url", context: { cluster: "leaky-url", user: "leaky-url" } },
    { name: "leaky-exec", context: { cluster: "leaky-exec", user: "leaky-exec" } },
  );
  writeFileSync(file, stringify(kubeconfig), { mode: 0o600 });
}

function writeConfig(file: string, kubeconfigPath: string, closedPort: number): void {
  const cluster = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    kubeconfig: { path: kubeconfigPath, context: name },
    ...extra,
  });
  const config = {
    clusters: [
      cluster("prod-eu", { prometheus: { url: `http://metrics:${SECRETS.promUrlPassword}@127.0.0.1:${closedPort}` } }),
      cluster("leaky-url"),
      cluster("leaky-exec", {
        prometheus: {
          url: `http://127.0.0.1:${closedPort}`,
          auth: { basic: { username: "metrics", password: SECRETS.promBasicPassword } },
        },
      }),
    ],
  };
  writeFileSync(file, stringify(config), { mode: 0o600 });
}

beforeAll(async () => {
  assertFreshBuild();
  sim = await startSimulation({ scenario: "demo", timeScale: 30, seed: 7 });
  dir = path.dirname(sim.kubeconfigPath);
  const closedPort = await findFreePort();
  const execPlugin = path.join(dir, "get-credentials");
  writeExecPlugin(execPlugin);
  const kubeconfigPath = path.join(dir, "leaky-kubeconfig");
  writeLeakyKubeconfig(kubeconfigPath, closedPort, execPlugin);
  const configPath = path.join(dir, "rollscope.yaml");
  writeConfig(configPath, kubeconfigPath, closedPort);
  secrets = [...Object.values(SECRETS), sim.users.rollscope.token];
  app = await startAppProcess({ kubeconfigPath, env: { ROLLSCOPE_CONFIG: configPath } });
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await sim?.stop();
});

async function get(pathname: string): Promise<string> {
  const res = await fetch(`${app.url}${pathname}`);
  const text = await res.text();
  expect(res.status, `${pathname}: ${text.slice(0, 300)}`).toBeLessThan(500);
  return text;
}

/** Each secret found in the text, as `where: secret`, so a failure names every leak at once. */
function leaksIn(where: string, text: string): string[] {
  return secrets
    .filter((secret) => text.includes(secret) || text.includes(encodeURIComponent(secret)))
    .map((secret) => `${where}: ${secret}`);
}

/** The stream's snapshot and whatever follows in the first few seconds. */
async function readStream(ms: number): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${app.url}/api/stream`, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    /* aborted at the end of the window */
  } finally {
    clearTimeout(timer);
  }
  return text;
}

describe("secrets in the kubeconfig and the Prometheus configuration", () => {
  let clusters: ClusterStateView[] = [];

  beforeAll(async () => {
    // Wait until the failures that carry secrets have happened: both leaky clusters are down with an error, and the
    // first controller scrape of leaky-url (through its unreachable API server) has been recorded.
    clusters = await waitFor(
      "the leaky clusters to report their failures",
      async () => {
        const list = (JSON.parse(await get("/api/clusters")) as { clusters: ClusterStateView[] }).clusters;
        const failed = (name: string) => list.find((c) => c.name === name && c.connection !== "connecting" && c.error);
        return failed("leaky-url") && failed("leaky-exec") && list.find((c) => c.name === "prod-eu")?.connection === "connected"
          ? list
          : null;
      },
      60_000,
      250,
    );
    await waitFor(
      "the first scrape of leaky-url to fail",
      async () => {
        const plugins = JSON.parse(await get("/api/plugins")) as {
          clusters: Array<{ cluster: string; metrics: { error: string | null } }>;
        };
        return plugins.clusters.find((c) => c.cluster === "leaky-url")?.metrics.error;
      },
      60_000,
      500,
    );
  }, 150_000);

  it("exercises the failures that carry them: the clusters report what failed, without the secret", () => {
    const byName = new Map(clusters.map((c) => [c.name, c]));
    expect(byName.get("leaky-url")?.error).toMatch(/unreachable/);
    expect(byName.get("leaky-exec")?.error).toContain('credential command "get-credentials" of kubeconfig user "leaky-exec" failed');
  });

  it("reach no API response", async () => {
    const rollout = "/api/clusters/prod-eu/rollouts/shop/checkout";
    const paths = [
      "/api/clusters",
      "/api/clusters/prod-eu",
      "/api/clusters/leaky-url",
      "/api/clusters/leaky-exec",
      "/api/rollouts",
      "/api/rollouts?cluster=leaky-url",
      "/api/plugins",
      "/api/plugins/health",
      "/api/session",
      "/api/session/permissions?cluster=prod-eu&namespace=shop&name=checkout",
      "/api/session/permissions?cluster=leaky-exec&namespace=shop&name=checkout",
      rollout,
      `${rollout}/history`,
      `${rollout}/actions`,
      "/api/clusters/leaky-exec/rollouts/shop/checkout",
      "/api/audit",
    ];
    const leaks = (await Promise.all(paths.map(async (p) => leaksIn(p, await get(p))))).flat();
    expect(leaks).toEqual([]);
  });

  it("reach nothing in the first seconds of the live stream", async () => {
    const stream = await readStream(3_000);
    expect(stream).toContain("leaky-exec");
    expect(leaksIn("/api/stream", stream)).toEqual([]);
  });

  it("reach no page's HTML", async () => {
    const pages = [
      "/",
      "/clusters",
      "/clusters/prod-eu",
      "/clusters/leaky-url",
      "/clusters/leaky-exec",
      "/plugins",
      "/rollouts/prod-eu/shop/checkout",
      "/audit",
    ];
    const leaks = (await Promise.all(pages.map(async (p) => leaksIn(p, await get(p))))).flat();
    expect(leaks).toEqual([]);
  });
});
