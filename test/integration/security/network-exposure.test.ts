import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { httpCall } from "@/test/harness/route-bridge";
import { writeRollscopeConfig, type TestConfigOptions } from "@/test/harness/rollscope-config";
import { startActionsSimulation } from "@/test/harness/rollout-scenario";
import { startAppProcess, type AppProcess, type AppProcessOptions } from "@/test/harness/app-process";
import { findFreePort } from "@/test/harness/free-port";
import { canConnect, probeKeepAlive } from "@/test/harness/raw-http";

/*
 * Issue 12, item 1: without sign-in (auth mode none) anyone who reaches the port acts with the kubeconfig's
 * credentials. The built app, started as `npm start` starts it, must listen on loopback only unless told otherwise,
 * and in every mode answer only requests addressed to an allowed host (a DNS-rebinding page sends its own name).
 * 127.0.0.2 stands in for "another address of this machine": a server bound to 127.0.0.1 does not accept there.
 */

let sim: SimulationHandle;
let app: AppProcess | undefined;

beforeAll(async () => {
  sim = await startActionsSimulation();
}, 60_000);

afterEach(async () => {
  await app?.stop();
  app = undefined;
});

afterAll(async () => {
  await sim?.stop();
});

async function start(
  config: Omit<TestConfigOptions, "kubeconfigPath" | "clusters">,
  options: Partial<AppProcessOptions> = {},
): Promise<AppProcess> {
  const configPath = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }], ...config });
  app = await startAppProcess({ kubeconfigPath: sim.kubeconfigPath, ...options, env: { ROLLSCOPE_CONFIG: configPath, ...options.env } });
  return app;
}

function get(port: number, path: string, host: string) {
  return httpCall(`http://127.0.0.1:${port}${path}`, { headers: { host } });
}

describe("auth mode none", () => {
  it("listens on 127.0.0.1 only when not told otherwise, and says so at start-up", async () => {
    const { port, logs } = await start({}, { hostname: null });
    expect(await canConnect("127.0.0.1", port)).toBe(true);
    expect(await canConnect("127.0.0.2", port)).toBe(false);
    expect(logs()).toContain("auth mode none");
    expect(logs()).toMatch(/listening on 127\.0\.0\.1 only/);
  });

  it("listens where ROLLSCOPE_LISTEN says, and the start-up log warns that anyone reaching it acts without sign-in", async () => {
    const { port, logs } = await start({}, { hostname: null, env: { ROLLSCOPE_LISTEN: "0.0.0.0" } });
    expect(await canConnect("127.0.0.2", port)).toBe(true);
    expect(logs()).toMatch(/listening on 0\.0\.0\.0/);
    expect(logs()).toMatch(/no sign-in/i);
  });

  it("refuses pages and API requests addressed to any other host (DNS rebinding) with 421", async () => {
    const { port } = await start({});
    for (const path of ["/", "/api/session", "/api/rollouts", "/audit"]) {
      const reply = await get(port, path, `rebind.evil.example:${port}`);
      expect(reply.status, path).toBe(421);
      expect(reply.json<{ error: { code: string } }>().error.code).toBe("misdirected");
      expect(reply.text).not.toContain("csrfToken");
    }
    const action = await httpCall(`http://127.0.0.1:${port}/api/clusters/prod/rollouts/shop/checkout/actions`, {
      method: "POST",
      headers: { host: `rebind.evil.example:${port}`, origin: `http://rebind.evil.example:${port}` },
      body: { action: "abort", expected: { resourceVersion: "1" } },
    });
    expect(action.status).toBe(421);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "localhost:8080"]) {
      expect((await get(port, "/", host)).status, host).toBe(200);
      expect((await get(port, "/api/session", host)).status, host).toBe(200);
    }
  });
});

describe("connections", () => {
  it("keeps an idle connection open longer than a load balancer's idle timeout, so a reused one is never reset", async () => {
    // Node's default is 5 s: a proxy (ALB, nginx: 60 s) or pooled client reusing a connection the server is closing
    // gets ECONNRESET or a 502. The e2e suite met it as "read ECONNRESET" on a request made 6 s after the previous one.
    const { port } = await start({});
    const probe = await probeKeepAlive(`http://127.0.0.1:${port}/api/session`, 6_000);
    expect(probe.keepAliveHeader).toBe("timeout=65");
    expect(probe.reused).toBe(true);
    expect(probe.secondStatus).toBe(200);
  });
});

describe("modes with sign-in", () => {
  it("oidc: the public URL's host is allowed besides loopback, any other host is refused", async () => {
    const { port } = await start(
      {
        auth: {
          mode: "oidc",
          baseUrl: "https://rollscope.example.com",
          oidc: { issuer: "http://127.0.0.1:9/realms/none", clientId: "rollscope" },
        },
      },
      { readyPath: "/api/session", env: { ROLLSCOPE_SESSION_SECRET: randomBytes(32).toString("base64url") } },
    );
    expect((await get(port, "/api/session", "rollscope.example.com")).status).toBe(200);
    expect((await get(port, "/signin", "rollscope.example.com")).status).toBe(200);
    expect((await get(port, "/api/session", "rollscope.example.org")).status).toBe(421);
    expect((await get(port, "/signin", "evil.example")).status).toBe(421);
  });

  it("proxy: server.allowedHosts replaces the loopback defaults", async () => {
    const port = await findFreePort();
    await start(
      {
        auth: { mode: "proxy", proxy: { trustedProxies: ["127.0.0.2/32"] } },
        server: { allowedHosts: ["rollscope.internal", `127.0.0.1:${port}`] },
      },
      { port, readyPath: "/api/session" },
    );
    expect((await get(port, "/api/session", "rollscope.internal")).status).toBe(200);
    expect((await get(port, "/api/session", "rollscope.internal:8443")).status).toBe(200);
    expect((await get(port, "/api/session", `localhost:${port}`)).status).toBe(421);
    expect((await get(port, "/", "rollscope.internal.evil.example")).status).toBe(421);
  });
});
