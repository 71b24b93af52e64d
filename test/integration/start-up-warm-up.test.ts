import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReadinessReport } from "@/lib/contracts/readiness";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { writeRollscopeConfig } from "@/sim/rollscope-config";
import { assertFreshBuild, startAppProcess, type AppProcess } from "@/test/harness/app-process";
import { findFreePort, waitFor } from "@/test/harness/free-port";
import { sumOf } from "@/test/harness/metrics-text";

/*
 * The production server (scripts/start-server.sh) renders the overview once before it reports ready, so the first
 * user a load balancer sends it does not pay for loading and compiling the route (lib/server/warm-up.ts). Order,
 * not time: when /api/readyz first answers 200 the server has already served that render. Needs a production
 * build (`npx next build`).
 */

let sim: SimulationHandle;
let app: AppProcess;
let dir: string;
let metricsUrl: string;

/** The access-log lines (JSON) of the server's requests for `path`. */
function requestLines(logs: string, path: string): { status: number }[] {
  return logs
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; path?: string; status: number })
    .filter((line) => line.msg === "request" && line.path === path);
}

beforeAll(async () => {
  assertFreshBuild();
  dir = mkdtempSync(path.join(tmpdir(), "rollscope-warm-up-"));
  sim = await startSimulation({
    scenario: "scale",
    scale: { clusters: 2, rolloutsPerCluster: 20, changesPerSecond: 1, seed: 1 },
    timeScale: 60,
    seed: 1,
    kubeconfigPath: path.join(dir, "kubeconfig"),
  });
  const configPath = path.join(dir, "rollscope.yaml");
  writeRollscopeConfig(configPath, sim.kubeconfigPath, sim.clusters);
  const metricsListen = `127.0.0.1:${await findFreePort()}`;
  metricsUrl = `http://${metricsListen}/metrics`;
  // Returns once /api/readyz first answers 200, as a load balancer would start sending users.
  app = await startAppProcess({
    kubeconfigPath: sim.kubeconfigPath,
    databaseUrl: `file:${path.join(dir, "rollscope.db")}`,
    // The start script passes these to node itself (NODE_OPTIONS refuses --cpu-prof); the last test reads the profile.
    env: {
      ROLLSCOPE_CONFIG: configPath,
      ROLLSCOPE_METRICS_LISTEN: metricsListen,
      ROLLSCOPE_NODE_FLAGS: `--cpu-prof --cpu-prof-dir=${path.join(dir, "profile")}`,
    },
    readyPath: "/api/readyz",
  });
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await sim?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the production server's start-up warm-up", () => {
  it("has rendered the overview and the API routes its first load calls before it first reports ready", () => {
    const logs = app.logs();
    expect(requestLines(logs, "/").length).toBeGreaterThan(0);
    expect(requestLines(logs, "/").every((line) => line.status === 200)).toBe(true);
    for (const api of ["/api/session", "/api/clusters", "/api/rollouts"]) expect(requestLines(logs, api).length, api).toBeGreaterThan(0);
    expect(logs).not.toContain("MaxListenersExceededWarning");
    expect(logs).toMatch(/warmed up in \d+ ms \(4 pages, 10 API routes, [1-9]\d* assets\); ready/);
  });

  it("has also rendered a Rollout's detail page and answered the API routes that page calls, without an error", () => {
    const logs = app.logs();
    const lines = logs
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg?: string; path?: string; status: number })
      .filter((line) => line.msg === "request" && typeof line.path === "string");
    const detailPage = lines.filter((line) => /^\/rollouts\/[^/]+\/[^/]+\/[^/]+$/.test(line.path!));
    expect(detailPage.map((line) => line.status)).toEqual([200]);
    for (const suffix of ["", "/history", "/replicasets"]) {
      const api = lines.filter((line) => new RegExp(`^/api/clusters/[^/]+/rollouts/[^/]+/[^/]+${suffix}$`).test(line.path!));
      expect(
        api.map((line) => line.status),
        `the detail page's API${suffix}`,
      ).toEqual([200]);
    }
    expect(lines.filter((line) => line.path === "/plugins").map((line) => line.status)).toEqual([200]);
  });

  it("leaves no live stream open behind it", async () => {
    // The stream's access-log line is written when it closes.
    await waitFor(
      "the warm-up's live stream to be logged closed",
      async () => requestLines(app.logs(), "/api/stream").length > 0,
      30_000,
      200,
    );
    await waitFor(
      "the warm-up's live stream to be closed",
      async () => sumOf(await (await fetch(metricsUrl)).text(), "rollscope_sse_clients") === 0,
      30_000,
      200,
    );
  });

  it("reports the warm-up among its checks once ready", async () => {
    const report = (await (await fetch(`${app.url}/api/readyz`)).json()) as ReadinessReport;
    expect(report).toMatchObject({ ready: true, checks: { warmUp: { ok: true, detail: null } } });
  });
});

describe("ROLLSCOPE_NODE_FLAGS", () => {
  it("reach the server's node: the CPU profile they ask for is written when it stops", async () => {
    await app.stop();
    // CPU.<date>.<time>.<pid>.<thread>.<sequence>.cpuprofile: one per thread (the database's checkpointer has one
    // too); the main thread's is thread 0.
    const files = readdirSync(path.join(dir, "profile")).filter((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
    expect(files).toHaveLength(1);
    const profile = JSON.parse(readFileSync(path.join(dir, "profile", files[0]), "utf8")) as {
      nodes: Array<{ callFrame: { url: string } }>;
    };
    // The profile is the Next server's, not the start script's preflight.
    expect(profile.nodes.some((node) => node.callFrame.url.includes("next/dist"))).toBe(true);
  });
});
