import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SimulationHandle } from "@/sim/cluster";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { writeRollscopeConfig } from "@/test/harness/rollscope-config";
import { isPausedAt, startActionsSimulation, startCanary, waitForRollout } from "@/test/harness/rollout-scenario";
import type { RolloutActionsView } from "@/lib/contracts/rollout-actions";
import { findFreePort, waitFor } from "@/test/harness/free-port";
import { samplesOf, sumOf } from "@/test/harness/metrics-text";
import { findPrometheus, startPrometheus, type PrometheusHandle } from "@/test/harness/prometheus";

/*
 * GET /metrics as Prometheus sees it: the listener the server starts (server.metricsListen), in this process beside
 * the route handlers, the simulated cluster and a migrated database; each family is read before and after the thing
 * it counts happens. A real Prometheus scrapes it, which proves the format.
 */

type Handler<P> = (request: Request, ctx: { params: Promise<P> }) => Promise<Response>;
type RolloutParams = { cluster: string; namespace: string; name: string };

const ORIGIN = "http://127.0.0.1:3000";
let sim: SimulationHandle;
let metricsServer: Server;
let metricsUrl: string;
let actions: { GET: Handler<RolloutParams>; POST: Handler<RolloutParams> };
let stream: { GET: Handler<Record<string, never>> };
let csrf: { token: string; cookie: string };
let prometheus: PrometheusHandle | null = null;

const request = (path: string, init: RequestInit = {}) =>
  new Request(`${ORIGIN}${path}`, { ...init, headers: { host: "127.0.0.1:3000", ...(init.headers as Record<string, string>) } });
const params = <P>(p: P) => ({ params: Promise.resolve(p) });
const checkout: RolloutParams = { cluster: "prod", namespace: "shop", name: "checkout" };

async function scrape(): Promise<string> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

async function promote(expected: RolloutActionsView["expected"]): Promise<Response> {
  return actions.POST(
    request("/api/clusters/prod/rollouts/shop/checkout/actions", {
      method: "POST",
      body: JSON.stringify({ action: "promote", expected }),
      headers: { "content-type": "application/json", origin: ORIGIN, cookie: csrf.cookie, "x-csrf-token": csrf.token },
    }),
    params(checkout),
  );
}

beforeAll(async () => {
  sim = await startActionsSimulation();
  process.env.DATABASE_URL = createMigratedDatabase();
  process.env.ROLLSCOPE_CONFIG = writeRollscopeConfig({ kubeconfigPath: sim.kubeconfigPath, clusters: [{ name: "prod" }] });
  actions = await import("@/app/api/clusters/[cluster]/rollouts/[namespace]/[name]/actions/route");
  stream = await import("@/app/api/stream/route");
  const session = (await import("@/app/api/session/route")) as { GET: Handler<Record<string, never>> };
  const res = await session.GET(request("/api/session"), params({}));
  csrf = { token: ((await res.json()) as { csrfToken: string }).csrfToken, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
  const { startApp } = await import("@/lib/server/app-context");
  await startApp();
  const { startMetricsServer } = await import("@/lib/telemetry/metrics-server");
  const port = await findFreePort();
  metricsServer = await startMetricsServer(`127.0.0.1:${port}`);
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  if (findPrometheus()) prometheus = await startPrometheus({ targets: [{ job: "rollscope", url: metricsUrl }] });
});

afterAll(async () => {
  await prometheus?.stop();
  metricsServer?.close();
  const { getAppContext } = await import("@/lib/server/app-context");
  await getAppContext().recorder.stop();
  await getAppContext().fleet.stop();
  await sim?.stop();
});

describe("GET /metrics", () => {
  it("reports each watch's state per cluster and kind, and counts relists after an expired watch", async () => {
    await waitFor(
      "the rollouts watch to report connected",
      async () => sumOf(await scrape(), "rollscope_watch_state", { cluster: "prod", kind: "rollouts", state: "connected" }) === 1,
    );
    const text = await scrape();
    expect(sumOf(text, "rollscope_watch_state", { cluster: "prod", kind: "rollouts", state: "unreachable" })).toBe(0);
    const before = sumOf(text, "rollscope_watch_relists_total", { cluster: "prod" });
    const faults = sim.cluster("prod").apiServer.faults;
    faults.expireNextWatch();
    faults.dropWatches();
    await waitFor(
      "a relist to be counted",
      async () => sumOf(await scrape(), "rollscope_watch_relists_total", { cluster: "prod" }) > before,
    );
  });

  it("counts the objects each watch delivers: a Rollout's changes add to its cluster's count of them", async () => {
    await waitFor(
      "the rollouts list to be counted",
      async () => sumOf(await scrape(), "rollscope_watch_events_total", { cluster: "prod", kind: "rollouts" }) > 0,
    );
    const before = sumOf(await scrape(), "rollscope_watch_events_total", { cluster: "prod", kind: "rollouts" });
    await startCanary(sim, "prod", "catalog");
    await waitFor(
      "the canary's changes to be counted",
      async () => sumOf(await scrape(), "rollscope_watch_events_total", { cluster: "prod", kind: "rollouts" }) >= before + 2,
    );
  });

  it("counts actions by kind and outcome: a promote done, then the same promote refused as stale", async () => {
    await startCanary(sim, "prod", "checkout");
    await waitFor("the dashboard to see the pause", async () => {
      const res = await actions.GET(request("/api/clusters/prod/rollouts/shop/checkout/actions"), params(checkout));
      return ((await res.json()) as RolloutActionsView).actions.promote.enabled;
    });
    const view = (await (
      await actions.GET(request("/api/clusters/prod/rollouts/shop/checkout/actions"), params(checkout))
    ).json()) as RolloutActionsView;
    const before = await scrape();
    expect((await promote(view.expected)).status).toBe(200);
    await waitForRollout(sim, "prod", "shop", "checkout", "paused at 60 %", isPausedAt(3));
    expect((await promote(view.expected)).status).toBe(409);
    const after = await scrape();
    const delta = (outcome: string) =>
      sumOf(after, "rollscope_actions_total", { kind: "promote", outcome }) -
      sumOf(before, "rollscope_actions_total", { kind: "promote", outcome });
    expect(delta("done")).toBe(1);
    expect(delta("stale")).toBe(1);
  });

  it("times the recorder's writes and reports its queue", async () => {
    const before = sumOf(await scrape(), "rollscope_recorder_write_duration_seconds_count", { outcome: "ok" });
    await startCanary(sim, "prod", "cart");
    await waitFor(
      "the recorder to write the change",
      async () => sumOf(await scrape(), "rollscope_recorder_write_duration_seconds_count", { outcome: "ok" }) > before,
    );
    const text = await scrape();
    expect(samplesOf(text, "rollscope_recorder_queue_lag_seconds")).toHaveLength(1);
    expect(samplesOf(text, "rollscope_recorder_pending_rows", { table: "samples" })).toHaveLength(1);
  });

  it("counts open live streams", async () => {
    const before = sumOf(await scrape(), "rollscope_sse_clients");
    const abort = new AbortController();
    const res = await stream.GET(request("/api/stream", { signal: abort.signal }), params({}));
    const reader = res.body!.getReader();
    await reader.read();
    expect(sumOf(await scrape(), "rollscope_sse_clients")).toBe(before + 1);
    abort.abort();
    await reader.cancel().catch(() => undefined);
    await waitFor("the stream to be counted closed", async () => sumOf(await scrape(), "rollscope_sse_clients") === before);
  });

  it("times Prometheus queries and counts their errors by reason", async () => {
    const { createPrometheusClient } = await import("@/lib/prometheus/client");
    const before = await scrape();
    const closedPort = await findFreePort();
    const unreachable = createPrometheusClient({ url: `http://127.0.0.1:${closedPort}`, timeoutMs: 2_000 });
    await expect(unreachable.queryRange("up", Date.now() - 60_000, Date.now(), 15)).rejects.toThrow(/unreachable/);
    const after = await scrape();
    expect(
      sumOf(after, "rollscope_prometheus_query_errors_total", { reason: "unreachable" }) -
        sumOf(before, "rollscope_prometheus_query_errors_total", { reason: "unreachable" }),
    ).toBe(1);
    expect(
      sumOf(after, "rollscope_prometheus_query_duration_seconds_count", { outcome: "error" }) -
        sumOf(before, "rollscope_prometheus_query_duration_seconds_count", { outcome: "error" }),
    ).toBe(1);
  });

  it("times each plugin health report, and its metrics and stored records apart", async () => {
    const { getAppContext } = await import("@/lib/server/app-context");
    const { getPluginHealth } = await import("@/lib/services/plugin-health");
    const count = (text: string, part: string) => sumOf(text, "rollscope_plugin_health_compute_seconds_count", { part });
    const before = await scrape();
    const report = await getPluginHealth(getAppContext(), { range: "24h" });
    const after = await scrape();
    for (const part of ["metrics", "records", "report"]) expect(count(after, part) - count(before, part)).toBe(1);
    const seconds =
      sumOf(after, "rollscope_plugin_health_compute_seconds_sum", { part: "report" }) -
      sumOf(before, "rollscope_plugin_health_compute_seconds_sum", { part: "report" });
    expect(seconds * 1000).toBeCloseTo(report.computeMs!, -1);
  });

  it("names no credential, and Prometheus itself parses it", async () => {
    const text = await scrape();
    for (const user of Object.values(sim.users)) expect(text).not.toContain(user.token);
    expect(text).toMatch(/^# TYPE rollscope_http_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    if (!prometheus) return console.warn("prometheus not installed: the scrape by a real Prometheus is not checked");
    await prometheus.waitForScrape();
    expect(await prometheus.queryValue('rollscope_actions_total{kind="promote",outcome="done"}')).toBeGreaterThanOrEqual(1);
    expect(await prometheus.queryValue('rollscope_watch_state{cluster="prod",kind="rollouts",state="connected"}')).toBe(1);
  });
});
