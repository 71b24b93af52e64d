import { mkdtempSync, rmSync } from "node:fs";
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
    env: { ROLLSCOPE_CONFIG: configPath, ROLLSCOPE_METRICS_LISTEN: metricsListen },
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
    expect(logs).toMatch(/warmed up in \d+ ms \(the overview, 4 API routes, [1-9]\d* assets\); ready/);
  });

  it("leaves no live stream open behind it", async () => {
    // The stream's access-log line is written when it closes.
    await waitFor("the warm-up's live stream to be logged closed", async () => requestLines(app.logs(), "/api/stream").length > 0, 30_000, 200);
    await waitFor("the warm-up's live stream to be closed", async () => sumOf(await (await fetch(metricsUrl)).text(), "rollscope_sse_clients") === 0, 30_000, 200);
  });

  it("reports the warm-up among its checks once ready", async () => {
    const report = (await (await fetch(`${app.url}/api/readyz`)).json()) as ReadinessReport;
    expect(report).toMatchObject({ ready: true, checks: { warmUp: { ok: true, detail: null } } });
  });
});
