import { RolloutActionGuard } from "@/lib/actions/action-guard";
import { SessionStore } from "@/lib/auth/session-store";
import { listScrapeFamilies } from "@/lib/plugins/per-rpc";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rollscopeConfigSchema, type RollscopeConfig } from "@/lib/config/schema";
import { createDbClient } from "@/lib/db/client";
import { singleProcessLeadership } from "@/lib/db/recorder-leadership";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRepositories, type Repositories } from "@/lib/db/repositories";
import { Fleet } from "@/lib/fleet/fleet";
import { DeltaLog } from "@/lib/live/delta-log";
import { StreamSlots } from "@/lib/live/stream-slots";
import { createPrometheusSource } from "@/lib/metrics/prometheus-source";
import { FULL_READ_SCOPE } from "@/lib/auth/read-scope";
import { createScrapeSource } from "@/lib/metrics/scrape-source";
import { ControllerMetricsScraper } from "@/lib/metrics/scraper";
import type { MetricsSource } from "@/lib/metrics/types";
import type { ComputedHealthView } from "@/lib/plugins/view-types";
import { Recorder } from "@/lib/recorder/recorder";
import type { AppContext } from "@/lib/server/app-context";
import { ServiceState } from "@/lib/server/service-state";
import { findStuckRouters, getMeasuredTraffic } from "@/lib/services/measured-traffic";
import { getPluginHealth } from "@/lib/services/plugin-health";
import { getPluginsOverview } from "@/lib/services/plugin-registry";
import { startSimulation, type SimulationHandle } from "@/sim/cluster";
import { findResourceType } from "@/sim/resources";
import { startPrometheus, type PrometheusHandle } from "@/test/harness/prometheus";

/**
 * Plugin health against the demo simulator and a REAL Prometheus (Debian's /usr/bin/prometheus) scraping the
 * simulated controllers, plus Rollscope's own scrape through the API server's service proxy — both at once on
 * the same run, so the two metrics modes can be compared. Fault rates are set on the simulated plugins.
 *
 * Tolerances: a plugin's derived success rate within ±0.08 of 1 − fault rate (the run lasts until each faulty
 * plugin has enough calls for binomial noise of ≤ ±0.03 at one sigma, see MIN_CALLS); per-RPC SetWeight within
 * ±0.08; scrape and Prometheus mode within ±0.06 of each other (Prometheus' increase() extrapolates at window edges,
 * the scrape mode does not).
 */

const repoRoot = path.resolve(import.meta.dirname, "../..");
/** The longest the run may take to reach MIN_CALLS (it took 100 s when it was a fixed sleep). */
const RUN_LIMIT_SECONDS = 300;
const CONTOUR_FAULT = 0.3;
const GATEWAY_FAULT = 0.2;
/** Calls of a plugin failing a share p for noise sqrt(p(1 − p) / n) ≤ 0.03: 234 at p = 0.3, 178 at p = 0.2. */
const MIN_CALLS = { contour: 240, gateway: 180 };
const RATE_TOLERANCE = 0.08;
const MODE_TOLERANCE = 0.06;
/** The simulator runs 30× faster than real time, so weights move every few seconds; only a parked canary stays put. */
const STUCK_FOR_SECONDS = 30;

let sim: SimulationHandle;
let fleet: Fleet;
let recorder: Recorder;
let scraper: ControllerMetricsScraper;
let prometheus: PrometheusHandle | null = null;
let workDir = "";
let config: RollscopeConfig;
let promApp: AppContext;
let scrapeApp: AppContext;
let measuredAt = 0;
let db: PrismaClient;
let repos: Repositories;

function pluginSettings(window: string) {
  return {
    slo: { target: 0.99 },
    stuckRouter: { tolerancePercent: 10, forSeconds: STUCK_FOR_SECONDS },
    // Each router's traffic is read with its own default template, from the family its data plane exports.
    measuredTraffic: { window },
    // No perRpc: per-call figures come from the plugin meter's family, which every simulated controller exports.
  };
}

/**
 * The demo's stuck profile is glooplatform in prod-us (search-api): the router reports success but its data plane
 * keeps the old split. Pause search-api once a canary weight is applied, so the stuck split lasts long enough.
 */
function parkStuckCanary(): void {
  const store = sim.cluster("prod-us").store;
  const rollouts = findResourceType("argoproj.io", "v1alpha1", "rollouts")!;
  const timer = setInterval(() => {
    const ro = store.tryGet(rollouts, "search", "search-api") as
      { status?: { canary?: { weights?: { canary?: { weight?: number } } } } } | undefined;
    if ((ro?.status?.canary?.weights?.canary?.weight ?? 0) <= 0) return;
    store.update(rollouts, "search", "search-api", (draft) => {
      (draft.spec as { paused?: boolean }).paused = true;
    });
    clearInterval(timer);
  }, 200);
  timer.unref();
}

function findHealth(views: readonly ComputedHealthView[], cluster: string, plugin: string): ComputedHealthView {
  const view = views.find((v) => v.cluster === cluster && v.plugin === plugin);
  if (!view) {
    const states = fleet.clusterStates().map((c) => `${c.name}:${c.connection}:${c.rolloutCount}:${c.error ?? ""}`);
    throw new Error(
      `no health for ${plugin} in ${cluster}: ${views.map((v) => `${v.cluster}/${v.plugin}`).join(", ")}; clusters ${states.join(" ")}`,
    );
  }
  return view;
}

/**
 * The Events API keeps what client-go's spam filter lets through (25 per Rollout, then one per 5 simulated
 * minutes), so whether a TrafficRoutingError Event exists after the run depends on how the tokens fell. The
 * warnings panel is checked against one: wait until the recorder has stored one (the product's path end to end).
 */
async function waitForRecordedRoutingError(cluster: string, messagePart: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await db.rolloutEvent.findFirst({
      where: { cluster, reason: "TrafficRoutingError", message: { contains: messagePart } },
    });
    if (found) return;
    if (Date.now() > deadline)
      throw new Error(`no TrafficRoutingError event (${messagePart}) recorded for ${cluster} within ${timeoutMs} ms of the run`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/**
 * Waits until Prometheus has enough derived calls of both faulty plugins, and per-RPC SetWeight calls of
 * gatewayAPI, for the rates to be compared with the injected fault rates (MIN_CALLS), as the report reads them
 * a little in the past (every scrape of it landed).
 */
async function waitForEnoughCalls(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await getPluginHealth({ ...promApp, now: () => Date.now() - 6_000 }, { range: "15m", cluster: "prod-eu" });
    // Before the fleet has listed the cluster's Rollouts, the report has no view of the plugin yet.
    const viewOf = (plugin: string) => report.plugins.find((v) => v.plugin === plugin);
    const attempts = (plugin: string) => viewOf(plugin)?.derived.data?.total?.attempts ?? 0;
    const perRpcCalls = viewOf("argoproj-labs/gatewayAPI")?.perRpc?.data?.methods.find((m) => m.method === "SetWeight")?.calls ?? 0;
    const counts = { contour: attempts("argoproj-labs/contour"), gateway: attempts("argoproj-labs/gatewayAPI"), perRpc: perRpcCalls };
    if (counts.contour >= MIN_CALLS.contour && counts.gateway >= MIN_CALLS.gateway && counts.perRpc >= MIN_CALLS.gateway) return;
    if (Date.now() > deadline)
      throw new Error(`not enough plugin calls within ${timeoutMs} ms: ${JSON.stringify(counts)}, wanted ${JSON.stringify(MIN_CALLS)}`);
    // The report's points are 30 s apart: a few polls per point are plenty.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
  }
}

beforeAll(
  async () => {
    workDir = mkdtempSync(path.join(tmpdir(), "rollscope-plugins-it-"));
    process.env.DATABASE_URL = `file:${path.join(workDir, "rollscope.db")}`;
    const migrate = spawnSync(process.execPath, [path.join(repoRoot, "node_modules/prisma/build/index.js"), "migrate", "deploy"], {
      cwd: repoRoot,
      env: process.env,
      encoding: "utf8",
    });
    if (migrate.status !== 0) throw new Error(`prisma migrate deploy failed:\n${migrate.stdout}\n${migrate.stderr}`);

    sim = await startSimulation({ scenario: "demo", timeScale: 30, seed: 11, kubeconfigPath: path.join(workDir, "kubeconfig") });
    sim.cluster("prod-eu").controller.setPluginProfile("argoproj-labs/gatewayAPI", { setWeightFailureRate: GATEWAY_FAULT, latencyMs: 40 });
    parkStuckCanary();
    prometheus = await startPrometheus({
      targets: sim.clusters.flatMap((c) => [
        { job: `argo-rollouts-${c.name}`, url: c.metricsUrl, labels: { cluster: c.name } },
        { job: `rollscope-plugin-meter-${c.name}`, url: c.pluginMeterUrl, labels: { cluster: c.name } },
      ]),
    });

    config = rollscopeConfigSchema.parse({
      clusters: sim.clusters.map((c) => ({
        name: c.name,
        kubeconfig: { path: sim.kubeconfigPath, context: c.name },
        prometheus: { url: prometheus!.url, labelMatcher: `cluster="${c.name}"`, timeoutMs: 10_000 },
      })),
      plugins: pluginSettings("5s"),
      metrics: { scrape: { intervalSeconds: 5, retentionHours: 1, pluginMeters: ["argo-rollouts-plugin-meter:9465"] } },
    });
    fleet = new Fleet(config);
    db = createDbClient();
    repos = createRepositories(db);
    recorder = new Recorder({ retentionDays: 1, flushIntervalMs: 500 }, repos);
    await recorder.start(fleet);
    // The scraper serves the scrape mode: it ignores clusters with a Prometheus, so hand it a Prometheus-less view.
    const scrapeConfig = { ...config, clusters: config.clusters.map(({ prometheus: _p, ...rest }) => rest) };
    scraper = new ControllerMetricsScraper(
      {
        config: scrapeConfig,
        clusters: fleet.clusters.map((c) => ({ name: c.name, config: { ...c.config, prometheus: undefined }, clients: c.clients })),
      },
      repos.metricSamples,
      (cluster) => listScrapeFamilies(scrapeConfig, cluster),
    );
    scraper.start();

    const sources = new Map<string, { prom: MetricsSource; scrape: MetricsSource }>();
    for (const cluster of config.clusters) {
      sources.set(cluster.name, {
        prom: createPrometheusSource(cluster.prometheus!),
        scrape: createScrapeSource(
          cluster.name,
          { intervalSeconds: 5, service: "argo-rollouts-metrics:8090", controllerNamespace: cluster.controllerNamespace },
          repos.metricSamples,
        ),
      });
    }
    const now = () => measuredAt;
    const deltaLog = new DeltaLog(fleet);
    const actionGuard = new RolloutActionGuard();
    const sessions = new SessionStore(repos.sessions, now);
    const leadership = singleProcessLeadership();
    promApp = {
      config,
      fleet,
      repos,
      recorder,
      leadership,
      deltaLog,
      streamSlots: new StreamSlots(config.server.streams),
      actionGuard,
      sessions,
      metricsSource: (cluster) => sources.get(cluster)!.prom,
      serviceState: new ServiceState(),
      now,
    };
    scrapeApp = {
      config,
      fleet,
      repos,
      recorder,
      leadership,
      deltaLog,
      streamSlots: new StreamSlots(config.server.streams),
      actionGuard,
      sessions,
      metricsSource: (cluster) => sources.get(cluster)!.scrape,
      serviceState: new ServiceState(),
      now,
    };

    await waitForEnoughCalls(RUN_LIMIT_SECONDS * 1000);
    await waitForRecordedRoutingError("prod-eu", "Contour:", 120_000);
    // Both modes answer for the same instant, a little in the past so every scrape of it has landed.
    measuredAt = Date.now() - 6_000;
  },
  RUN_LIMIT_SECONDS * 1000 + 240_000,
);

afterAll(async () => {
  scraper?.stop();
  await recorder?.stop();
  await fleet?.stop();
  await sim?.stop();
  await prometheus?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("plugin health against the demo simulator and a real Prometheus", () => {
  it("derives each faulty plugin's success rate from controller signals, matching the injected fault rate", async () => {
    const report = await getPluginHealth(promApp, { range: "15m" });
    const contour = findHealth(report.plugins, "prod-eu", "argoproj-labs/contour");
    expect(contour.derived.error).toBeNull();
    expect(contour.derived.signal).toMatch(/^DERIVED/);
    const total = contour.derived.data!.total!;
    expect(total.attempts).toBeGreaterThan(40);
    expect(Math.abs(total.successRate! - (1 - CONTOUR_FAULT))).toBeLessThanOrEqual(RATE_TOLERANCE);
    const gateway = findHealth(report.plugins, "prod-eu", "argoproj-labs/gatewayAPI");
    expect(Math.abs(gateway.derived.data!.total!.successRate! - (1 - GATEWAY_FAULT))).toBeLessThanOrEqual(RATE_TOLERANCE);
    const healthy = findHealth(report.plugins, "prod-eu", "argoproj-labs/openshift");
    expect(healthy.derived.data!.total!.successRate ?? 1).toBeGreaterThanOrEqual(0.99);
    // 30 % failures against a 99 % SLO burn the budget far faster than 14.4×.
    expect(contour.slo.data!.burn.find((b) => b.window === "1h")!.status).toBe("critical");
    expect(contour.failuresByMethod.data!.find((m) => m.method === "SetWeight")!.failures).toBeGreaterThan(0);
    expect(contour.warnings.data!.some((w) => w.reason === "TrafficRoutingError" && w.hint?.code === "set-weight-failed")).toBe(true);
    expect(contour.latency.data!.p95).not.toBeNull();
  });

  it("shows the plugin meter's measured per-call figures where the cluster has the meter (no per-RPC configuration)", async () => {
    const report = await getPluginHealth(promApp, { range: "15m", cluster: "prod-eu", plugin: "argoproj-labs/gatewayAPI" });
    const perRpc = report.plugins[0].perRpc!;
    expect(perRpc.error).toBeNull();
    expect(perRpc.signal).toMatch(/^MEASURED at the plugin boundary: rollscope_plugin_calls_total/);
    expect(perRpc.data!.source).toBe("meter");
    const setWeight = perRpc.data!.methods.find((m) => m.method === "SetWeight")!;
    expect(setWeight.calls).toBeGreaterThan(40);
    expect(Math.abs(setWeight.successRate! - (1 - GATEWAY_FAULT))).toBeLessThanOrEqual(RATE_TOLERANCE);
    expect(setWeight.errorsByOutcome.map((e) => e.outcome)).toEqual(["error"]);
    // The profile delays every call by 40 ms; the meter adds the simulator's 2 ms of transport.
    expect(setWeight.mean).toBeCloseTo(0.042, 3);
    expect(setWeight.p50).toBeGreaterThan(0.025);
    expect(perRpc.data!.restarts).toBe(0);
  });

  it("gives the same answer in direct-scrape mode as in Prometheus mode", async () => {
    const [prom, scrape] = await Promise.all([getPluginHealth(promApp, { range: "15m" }), getPluginHealth(scrapeApp, { range: "15m" })]);
    for (const [cluster, plugin] of [
      ["prod-eu", "argoproj-labs/contour"],
      ["prod-eu", "argoproj-labs/gatewayAPI"],
    ] as const) {
      const a = findHealth(prom.plugins, cluster, plugin).derived.data!.total!;
      const scraped = findHealth(scrape.plugins, cluster, plugin);
      expect(scraped.derived.error).toBeNull();
      const b = scraped.derived.data!.total!;
      expect(findHealth(scrape.plugins, cluster, plugin).derived.signal).toMatch(/scraped by Rollscope/);
      expect(Math.abs(a.successRate! - b.successRate!)).toBeLessThanOrEqual(MODE_TOLERANCE);
      expect(b.attempts).toBeGreaterThan(0.7 * a.attempts);
      expect(b.attempts).toBeLessThan(1.3 * a.attempts);
    }
    const perRpc = findHealth(scrape.plugins, "prod-eu", "argoproj-labs/gatewayAPI").perRpc!.data!;
    expect(Math.abs(perRpc.methods.find((m) => m.method === "SetWeight")!.successRate! - (1 - GATEWAY_FAULT))).toBeLessThanOrEqual(
      RATE_TOLERANCE,
    );
  });

  it("reads the 1-hour burn window at most once a minute per cluster and plugin membership, the next read in the background", async () => {
    // Instants a little in the past of every scrape, so each one's window holds different samples.
    const t0 = measuredAt - 120_000;
    let nowMs = t0;
    // Each read of the window: when, and for which Rollouts (the simulator's Rollouts can leave or join a plugin's
    // group as their own problems come and go, which is a new membership and a read of its own).
    const reads: Array<{ at: number; cluster: string; groups: string }> = [];
    const counting = (cluster: string): MetricsSource => {
      const prom = promApp.metricsSource(cluster);
      return {
        ...prom,
        increaseByGroup: (query, range) => {
          if (range.startMs === range.endMs && range.stepSeconds === 3600)
            reads.push({ at: range.endMs, cluster, groups: JSON.stringify(query.groups) });
          return prom.increaseByGroup(query, range);
        },
      };
    };
    const app: AppContext = { ...promApp, serviceState: new ServiceState(), now: () => nowMs, metricsSource: counting };
    const burnOf = (report: Awaited<ReturnType<typeof getPluginHealth>>) =>
      findHealth(report.plugins, "prod-eu", "argoproj-labs/contour").slo.data!.burn.find((b) => b.window === "1h")!;
    /** No membership's window read twice within a minute. */
    const readsApart = () => {
      const byGroups = new Map<string, number[]>();
      for (const r of reads) byGroups.set(r.groups, [...(byGroups.get(r.groups) ?? []), r.at]);
      return [...byGroups.values()].every((instants) => instants.every((at, i) => i === 0 || at - instants[i - 1] >= 60_000));
    };

    const first = burnOf(await getPluginHealth(app, { range: "1h" }));
    // One read per cluster with traffic-router plugins.
    const clusters = reads.length;
    expect(clusters).toBeGreaterThan(0);
    nowMs = t0 + 30_000;
    await getPluginHealth(app, { range: "1h" });
    expect(readsApart()).toBe(true);
    // A minute on: one read per cluster for the new instant, in the background of this report, except for a cluster
    // whose membership changed at the 30-s report and was read for it then (that read is 40 s old, still reused).
    const readAt = (at: number) => new Set(reads.filter((r) => r.at === at).map((r) => r.cluster));
    const readAgainAt30s = readAt(t0 + 30_000);
    nowMs = t0 + 70_000;
    await getPluginHealth(app, { range: "1h" });
    const readAt70s = readAt(t0 + 70_000);
    for (const cluster of readAt(t0)) if (!readAgainAt30s.has(cluster)) expect(readAt70s, cluster).toContain(cluster);
    expect(reads.filter((r) => r.at === t0 + 70_000).length).toBeLessThanOrEqual(clusters);
    // A later report has it once it is in: its window ends 70 s later, so its attempts differ (the simulated plugins
    // keep calling); the reports meanwhile read no window again.
    nowMs = t0 + 80_000;
    await expect
      .poll(async () => burnOf(await getPluginHealth(app, { range: "1h" })).attempts, { timeout: 30_000 })
      .not.toBe(first.attempts);
    expect(readsApart()).toBe(true);
  });

  it("asks each cluster's Prometheus one grouped query over the range for the signals and the latency together", async () => {
    const rangeReads = new Map<string, Array<readonly unknown[]>>();
    const counting = (cluster: string): MetricsSource => {
      const prom = promApp.metricsSource(cluster);
      return {
        ...prom,
        increaseByGroup: (query, range) => {
          if (range.startMs !== range.endMs)
            rangeReads.set(cluster, [...(rangeReads.get(cluster) ?? []), query.parts.map((p) => p.metric)]);
          return prom.increaseByGroup(query, range);
        },
      };
    };
    const app: AppContext = { ...promApp, serviceState: new ServiceState(), metricsSource: counting };
    const report = await getPluginHealth(app, { range: "15m" });
    expect(rangeReads.size).toBeGreaterThan(0);
    for (const [, reads] of rangeReads) {
      expect(reads).toHaveLength(1);
      expect(reads[0]).toEqual(expect.arrayContaining(["rollout_events_total", "rollout_reconcile_bucket"]));
    }
    // Both panels read from the one answer.
    const contour = findHealth(report.plugins, "prod-eu", "argoproj-labs/contour");
    expect(contour.derived.data!.total!.attempts).toBeGreaterThan(40);
    expect(contour.latency.error).toBeNull();
    expect(contour.latency.data!.p95).not.toBeNull();
  });

  it("sends each cluster's queries in a turn of the event loop of its own, so streams and timers run in between", async () => {
    // The loop's turns, counted by an immediate that queues the next: one that is queued while immediates run waits
    // for the next turn, so the count goes up by one a turn.
    let turn = 0;
    let counting = true;
    const tick = () => {
      turn++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const firstQueryTurn = new Map<string, number>();
    const recording = (cluster: string): MetricsSource => {
      const prom = promApp.metricsSource(cluster);
      return {
        ...prom,
        increaseByGroup: (query, range) => {
          if (!firstQueryTurn.has(cluster)) firstQueryTurn.set(cluster, turn);
          return prom.increaseByGroup(query, range);
        },
      };
    };
    const app: AppContext = { ...promApp, serviceState: new ServiceState(), metricsSource: recording };
    try {
      await getPluginHealth(app, { range: "15m" });
    } finally {
      counting = false;
    }
    expect(firstQueryTurn.size).toBeGreaterThan(1);
    // No two clusters' queries were built and sent in the same turn.
    expect(new Set(firstQueryTurn.values()).size).toBe(firstQueryTurn.size);
  });

  it("shows a measured canary share for every routed demo Rollout, each read from its own router's exporter family", async () => {
    const now = Date.now();
    const measuredApp = { ...promApp, now: () => now };
    const missing: string[] = [];
    let checked = 0;
    for (const cluster of fleet.clusters) {
      for (const rollout of cluster.rollouts()) {
        // A router that is not registered applies nothing (staging's consul, broken on purpose): nothing to measure.
        if (rollout.trafficRouters.length === 0 || rollout.attention.some((a) => a.code === "PluginNotRegistered")) continue;
        checked += 1;
        const measured = await getMeasuredTraffic(measuredApp, {
          cluster: cluster.name,
          namespace: rollout.namespace ?? "",
          name: rollout.name,
          fromMs: now - 5 * 60_000,
          toMs: now,
        });
        const hasTraffic = measured?.points.some((p) => p.canaryPercent !== null && (p.requestsPerSecond ?? 0) > 0) ?? false;
        if (measured?.error || !hasTraffic)
          missing.push(
            `${cluster.name}/${rollout.namespace}/${rollout.name} (${rollout.trafficRouters.map((r) => r.name).join(", ")}): ${measured?.error ?? "no traffic"} [${measured?.source}]`,
          );
      }
    }
    expect(checked).toBeGreaterThan(15);
    expect(missing).toEqual([]);
  });

  it("raises a stuck-router finding for the simulator's stuck profile (prod-us glooplatform) and no other", async () => {
    // The finding needs the stuck split to last its configured time at every settled point up to now: wait for it
    // (each check is shared for 20 s, so ask again as time passes).
    const deadline = Date.now() + 120_000;
    let result = await findStuckRouters(promApp, fleet.cluster("prod-us")!);
    while (!result.findings.some((f) => f.affected[0].name === "search-api") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      measuredAt = Date.now();
      result = await findStuckRouters(promApp, fleet.cluster("prod-us")!);
    }
    const stuck = result.findings.filter((f) => f.kind === "stuck-router");
    expect(stuck.map((f) => f.affected[0].name)).toContain("search-api");
    expect(stuck.every((f) => f.affected[0].plugin === "solo-io/glooplatform")).toBe(true);
    expect(result.problems).toEqual([]);
    const eu = await findStuckRouters(promApp, fleet.cluster("prod-eu")!);
    expect(eu).toEqual({ findings: [], problems: [] });
  });

  it("lists registry, matrix and findings for the fleet, and says measured traffic needs Prometheus in scrape mode", async () => {
    const overview = await getPluginsOverview(scrapeApp, { scope: FULL_READ_SCOPE });
    expect(overview.matrix.clusters).toEqual(["prod-eu", "prod-us", "staging"]);
    const consul = overview.matrix.rows.find((r) => r.name === "hashicorp/consul")!;
    expect(consul.cells.staging.state).toBe("referenced-not-registered");
    expect(
      overview.findings.some(
        (f) => f.kind === "referenced-not-registered" && f.affected.some((a) => a.cluster === "staging" && a.name === "notifications"),
      ),
    ).toBe(true);
    expect(overview.findings.some((f) => f.kind === "missing-sha256" && f.affected[0].cluster === "prod-us")).toBe(true);
    expect(overview.clusters.every((c) => c.metrics.kind === "scrape" && c.metrics.ok)).toBe(true);

    const now = Date.now();
    const scraped = await getMeasuredTraffic(scrapeApp, {
      cluster: "prod-eu",
      namespace: "shop",
      name: "checkout",
      fromMs: now - 300_000,
      toMs: now,
    });
    expect(scraped?.error).toMatch(/needs Prometheus/);
    const measured = await getMeasuredTraffic(
      { ...promApp, now: Date.now },
      { cluster: "prod-eu", namespace: "shop", name: "checkout", fromMs: now - 300_000, toMs: now },
    );
    expect(measured?.error).toBeNull();
    expect(measured?.points.some((p) => p.canaryPercent !== null && (p.requestsPerSecond ?? 0) > 0)).toBe(true);
  });

  it("keeps working when Prometheus is down, and names a template that is not valid PromQL", async () => {
    const down = createPrometheusSource({ url: "http://127.0.0.1:9", timeoutMs: 500 });
    const downApp: AppContext = { ...promApp, metricsSource: () => down, now: Date.now };
    const report = await getPluginHealth(downApp, { range: "15m", cluster: "prod-eu" });
    const contour = findHealth(report.plugins, "prod-eu", "argoproj-labs/contour");
    expect(contour.derived.error).toMatch(/unreachable/);
    expect(contour.warnings.error).toBeNull();
    const overview = await getPluginsOverview(downApp, { scope: FULL_READ_SCOPE });
    expect(overview.matrix.rows.length).toBeGreaterThan(0);

    const broken = rollscopeConfigSchema.parse({
      ...config,
      plugins: {
        ...config.plugins,
        // catalog routes through contour: its own template is the one in force.
        measuredTraffic: {
          window: "5s",
          templates: { "argoproj-labs/contour": { canary: "sum(rate(x[${window}])", total: "sum(rate(x[${window}]))" } },
        },
      },
    });
    const brokenApp: AppContext = { ...promApp, config: broken, now: Date.now };
    const measured = await getMeasuredTraffic(brokenApp, {
      cluster: "prod-eu",
      namespace: "shop",
      name: "catalog",
      fromMs: Date.now() - 300_000,
      toMs: Date.now(),
    });
    expect(measured?.error).toMatch(/^template plugins\.measuredTraffic\.templates\.argoproj-labs\/contour\.canary is not valid PromQL/);
    expect((await getPluginsOverview(brokenApp, { scope: FULL_READ_SCOPE })).configProblems.map((p) => p.template)).toContain(
      "plugins.measuredTraffic.templates.argoproj-labs/contour.canary",
    );
  });
});
