import type { AppProcess } from "../../test/harness/app-process";
import { ms, sleep, type Distribution, type Row } from "../measure";
import { measureApi, readAppCounters, readPrometheusEngine, startStack, waitForFleet, type BenchRun } from "../stack";

/**
 * The plugins page's health panels: derived from the controller's metrics in the real Prometheus, which has been
 * scraping every simulated cluster since the stack started. The first request is what the first visitor waits for
 * (the default view is kept computed in the background, so also how long that report took to compute, its
 * computeMs); the steady state is what everyone after gets.
 */
export async function measurePluginHealth(
  run: BenchRun,
  app: AppProcess,
  metricsAddress: string,
  prometheusUrl: string | undefined,
): Promise<{
  pluginHealth: Distribution & { errors: number };
  pluginHealthColdMs: number;
  pluginHealthComputeMs: number;
  /** The mean computation of the reports computed while the five clients asked (NaN when none was). */
  pluginHealthSteadyComputeMs: number;
}> {
  const { P } = run;
  const before = await readAppCounters(metricsAddress).catch(() => null);
  const engine = prometheusUrl ? await readPrometheusEngine(prometheusUrl).catch(() => null) : null;
  const startedMs = performance.now();
  const coldStart = performance.now();
  const cold = await fetch(`${app.url}/api/plugins/health?range=1h`, { signal: AbortSignal.timeout(120_000) })
    .then(async (res) => (res.ok ? ((await res.json()) as { computeMs?: number; computedAt?: string }) : null))
    .catch(() => null);
  const pluginHealthColdMs = cold ? performance.now() - coldStart : Number.NaN;
  // The first answer may come from a report the server computed in the background: how long that computation took.
  const pluginHealthComputeMs = cold?.computeMs ?? Number.NaN;
  if (cold?.computedAt)
    console.log(
      `plugin health: the first answer's report was computed ${((Date.now() - Date.parse(cold.computedAt)) / 1000).toFixed(1)} s before it, in ${pluginHealthComputeMs} ms`,
    );
  const pluginHealth = await measureApi(`${app.url}/api/plugins/health?range=1h`, P.apiSeconds, 5);
  // Where the reports computed meanwhile spent their time (the app's rollscope_plugin_health_compute_seconds): the
  // profile's first lead when the computation is slow.
  const after = await readAppCounters(metricsAddress).catch(() => null);
  let pluginHealthSteadyComputeMs = Number.NaN;
  if (before && after && after.pluginHealthReports > before.pluginHealthReports) {
    const n = after.pluginHealthReports - before.pluginHealthReports;
    const meanMs = (part: "metrics" | "records" | "report") =>
      Math.round(((after.pluginHealthSeconds[part] - before.pluginHealthSeconds[part]) / n) * 1000);
    pluginHealthSteadyComputeMs = meanMs("report");
    console.log(
      `plugin health: ${n} report(s) computed during the measurement, mean ${meanMs("report")} ms: ` +
        `metrics ${meanMs("metrics")} ms, stored records ${meanMs("records")} ms (at once)`,
    );
    const queries = after.prometheusQueries - before.prometheusQueries;
    const querySeconds = after.prometheusQuerySeconds - before.prometheusQuerySeconds;
    if (queries > 0)
      console.log(`plugin health: ${queries} Prometheus queries, mean ${Math.round((querySeconds / queries) * 1000)} ms as the app waited`);
  }
  // Whether the app's queries waited for Prometheus' CPU or for its query slots.
  const engineAfter = prometheusUrl && engine ? await readPrometheusEngine(prometheusUrl).catch(() => null) : null;
  if (engine && engineAfter && engineAfter.queries > engine.queries) {
    const n = engineAfter.queries - engine.queries;
    const seconds = (performance.now() - startedMs) / 1000;
    const mean = (key: "queueSeconds" | "prepareSeconds" | "evalSeconds") => Math.round(((engineAfter[key] - engine[key]) / n) * 1000);
    console.log(
      `plugin health: Prometheus used ${(engineAfter.cpuSeconds - engine.cpuSeconds).toFixed(1)} CPU s over ${seconds.toFixed(0)} s; ` +
        `${n} queries, mean ${mean("queueSeconds")} ms waiting for a query slot, ${mean("prepareSeconds")} ms selecting series, ` +
        `${mean("evalSeconds")} ms evaluating`,
    );
  }
  // The app logs each report slower than 2 s with where its time went: the kept report the first answer carried is
  // computed in the background, maybe during an earlier stretch's load.
  const slow = app
    .logs()
    .split("\n")
    .filter((line) => line.includes("plugin health (") && line.includes(" took "));
  for (const line of slow.slice(-3)) console.log(`plugin health, the app's log: ${line.trim()}`);
  return { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs, pluginHealthSteadyComputeMs };
}

export function pluginHealthRows(run: BenchRun, pluginHealth: Distribution & { errors: number }, coldMs: number, computeMs: number): Row[] {
  const { P } = run;
  return [
    {
      metric: `Plugin health p50/p95, ${P.clusters} clusters, Prometheus, 5 clients (n=${pluginHealth.n}, errors ${pluginHealth.errors})`,
      value: `${ms(pluginHealth.p50)} / ${ms(pluginHealth.p95)}`,
      target: "p95 ≤ 300 ms",
      met: pluginHealth.p95 <= 300 && pluginHealth.errors === 0,
    },
    {
      metric: "Plugin health: the first (cold) report",
      value: Number.isFinite(coldMs) ? ms(coldMs) : "failed",
      target: "≤ 1.5 s",
      met: Number.isFinite(coldMs) ? coldMs <= 1500 : false,
    },
    {
      metric: "Plugin health: computing the report the first answer carried (its computeMs; in the background when kept)",
      value: Number.isFinite(computeMs) ? ms(computeMs) : "not reported",
      target: "≤ 2 s",
      met: Number.isFinite(computeMs) ? computeMs <= 2000 : false,
    },
  ];
}

/**
 * `--only plugin-health`: the scale scenario with Prometheus and the production app, the fleet loaded, a minute of
 * scrapes and churn, then the same cold request and steady-state load as the full run.
 */
export async function addPluginHealthRows(run: BenchRun, rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const { P, short } = run;
  const stack = await startStack(run, {
    rollouts: P.rollouts,
    rate: P.rate,
    prometheus: true,
  });
  try {
    await waitForFleet(stack.app, P.clusters * P.rollouts);
    const settleSeconds = short ? 5 : 60;
    console.log(`plugin health: ${settleSeconds} s of scrapes and churn before the cold report…`);
    await sleep(settleSeconds * 1000);
    const before = await readAppCounters(stack.metricsAddress);
    const { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs, pluginHealthSteadyComputeMs } = await measurePluginHealth(
      run,
      stack.app,
      stack.metricsAddress,
      stack.prometheus?.url,
    );
    const after = await readAppCounters(stack.metricsAddress);
    // What the cold report and the steady state cost the app (its CPU, its event loop's lag), from its own /metrics.
    const cost = { cpuSeconds: after.cpuSeconds - before.cpuSeconds, eventLoopLagP99Ms: after.lagP99Seconds * 1000 };
    console.log(`plugin health: cold report and steady state cost the app ${JSON.stringify(cost)}`);
    rows.push(...pluginHealthRows(run, pluginHealth, pluginHealthColdMs, pluginHealthComputeMs));
    rows.push({
      metric: "Plugin health: the app's CPU for the cold report and the steady state; event-loop lag p99",
      value: `${cost.cpuSeconds.toFixed(1)} s; ${cost.eventLoopLagP99Ms.toFixed(0)} ms`,
      target: "",
      met: null,
    });
    const stuckRouterCheck = await measureStuckRouterCheck(stack.app, stack.metricsAddress);
    rows.push({
      metric: `Plugins page: its stuck-router check of ${P.clusters} clusters (up to 200 Rollouts each), cold — time; Prometheus requests and the app's CPU meanwhile`,
      value: stuckRouterCheck
        ? `${ms(stuckRouterCheck.ms)}; ${stuckRouterCheck.prometheusRequests}; ${stuckRouterCheck.cpuSeconds.toFixed(1)} s`
        : "failed",
      target: "",
      met: null,
    });
    Object.assign(figures, {
      pluginHealth,
      pluginHealthColdMs,
      pluginHealthComputeMs,
      pluginHealthSteadyComputeMs,
      pluginHealthCost: cost,
      stuckRouterCheck,
    });
  } finally {
    await stack.stop();
  }
}

/**
 * The plugins page's first answer once its kept findings are older than 40 s (a minute and more after the start-up
 * warm-up asked for them): every cluster's stuck-router check runs while the request waits. How long it took, the
 * requests it sent Prometheus (measured traffic of up to 200 Rollouts per cluster) and the app's CPU meanwhile.
 */
async function measureStuckRouterCheck(
  app: AppProcess,
  metricsAddress: string,
): Promise<{ ms: number; prometheusRequests: number; cpuSeconds: number } | null> {
  const before = await readAppCounters(metricsAddress);
  const startedAt = performance.now();
  const res = await fetch(`${app.url}/api/plugins`, { signal: AbortSignal.timeout(180_000) }).catch(() => null);
  if (!res?.ok) return null;
  const overview = (await res.json()) as { clusters?: Array<{ errors?: string[] }> };
  const elapsed = performance.now() - startedAt;
  const after = await readAppCounters(metricsAddress);
  const problems = (overview.clusters ?? []).flatMap((c) => c.errors ?? []).filter((e) => e.startsWith("stuck-router check"));
  if (problems.length > 0) console.log(`plugins page: ${problems.length} stuck-router problem(s), first: ${problems[0]}`);
  return {
    ms: elapsed,
    prometheusRequests: after.prometheusQueries - before.prometheusQueries,
    cpuSeconds: after.cpuSeconds - before.cpuSeconds,
  };
}
