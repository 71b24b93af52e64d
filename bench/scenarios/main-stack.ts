import { latencyCdfChart } from "../latency-chart";
import { distribution, mb, ms, readTreeRss, sampled, sleep, type Row } from "../measure";
import { longTasksRow, serverStallRows } from "../long-tasks";
import { eventLoopStalls, measureApi, startStack, waitForFleet, type BenchRun } from "../stack";
import { detailPageRows, measureDetailDomLatency } from "./detail-page";
import { measureFirstLoad } from "./first-row";
import { measureDomLatency, measureLiveLatency } from "./live-latency";
import { measurePluginHealth, pluginHealthRows } from "./plugin-health";

/**
 * The main stack (Prometheus, the app, Chromium): live latency against the floor, first load, DOM latency, the
 * overview and plugin-health APIs, RSS before and after the churn; rows for the table and figures for the JSON.
 */
export async function measureMainStack(run: BenchRun, rows: Row[], figures: Record<string, unknown>): Promise<void> {
  const { P, short } = run;
  const total = P.clusters * P.rollouts;
  // Baseline RSS: the same app watching the same number of clusters with no Rollouts.
  const empty = await startStack(run, { rollouts: 0, rate: 0, prometheus: true });
  await sleep(3_000);
  const baselineRss = readTreeRss(empty.app.pid()!);
  await empty.stop();

  const stack = await startStack(run, { rollouts: P.rollouts, rate: P.rate, prometheus: true });
  try {
    await waitForFleet(stack.app, total);
    await sleep(3_000);
    const warmRss = readTreeRss(stack.app.pid()!);

    const { sseLat, floorLat } = await measureLiveLatency(run, stack);
    // A browser measurement that times out is reported as missing rather than ending the run. First load comes
    // first: it is what an SRE opening the dashboard gets, before the probes of the DOM measurement exist.
    const firstLoad = await measureFirstLoad(stack.app).catch((err: unknown) => {
      console.error(`first load not measured: ${String(err).split("\n")[0]}`);
      return { firstRowMs: Number.NaN, jsBytes: Number.NaN };
    });
    // The server's longest event-loop stall over each stretch: the pages taking changes, the API load, the churn alone.
    const stalls = eventLoopStalls(stack.metricsAddress, stack.loopLog, stack.app.pid());
    await stalls.start();
    const domLat = await measureDomLatency(run, stack, P.samples).catch((err: unknown) => {
      console.error(`DOM latency not measured: ${String(err).split("\n")[0]}`);
      return { ...sampled([]), longTasks: undefined };
    });
    const detail = await measureDetailDomLatency(run, stack, Math.min(P.samples, 60)).catch((err: unknown) => {
      console.error(`detail-page latency not measured: ${String(err).split("\n")[0]}`);
      return { latency: distribution([]), requests: Number.NaN, changes: 0 };
    });
    const notMeasured = { longestMs: Number.NaN, heldMs: Number.NaN, heldOwnMs: Number.NaN };
    const stallsOf = { pages: await stalls.stop("while the pages took changes"), apis: notMeasured, churn: notMeasured };
    await stalls.start();
    const api = await measureApi(`${stack.app.url}/api/rollouts`, P.apiSeconds);
    const { pluginHealth, pluginHealthColdMs, pluginHealthComputeMs, pluginHealthSteadyComputeMs } = await measurePluginHealth(
      run,
      stack.app,
      stack.metricsAddress,
      stack.prometheus?.url,
    );
    stallsOf.apis = await stalls.stop("under the API load");

    console.log(`churn for ${P.churnSeconds} s…`);
    await stalls.start();
    await sleep(P.churnSeconds * 1000);
    stallsOf.churn = await stalls.stop("over the churn alone");
    const serverStalls = { pages: stallsOf.pages.longestMs, apis: stallsOf.apis.longestMs, churn: stallsOf.churn.longestMs };
    const serverHeld = { pages: stallsOf.pages.heldMs, apis: stallsOf.apis.heldMs, churn: stallsOf.churn.heldMs };
    const serverHeldOwn = { pages: stallsOf.pages.heldOwnMs, apis: stallsOf.apis.heldOwnMs, churn: stallsOf.churn.heldOwnMs };
    const churnRss = readTreeRss(stack.app.pid()!);

    rows.push(
      {
        metric: `Live: write → SSE p50/p95/p99 (n=${sseLat.n})`,
        value: `${ms(sseLat.p50)} / ${ms(sseLat.p95)} / ${ms(sseLat.p99)}`,
        target: "",
        met: null,
      },
      {
        metric: `Floor: write → bare client-node watch p50/p95/p99 (n=${floorLat.n})`,
        value: `${ms(floorLat.p50)} / ${ms(floorLat.p95)} / ${ms(floorLat.p99)}`,
        target: "",
        met: null,
      },
      {
        metric: `Live: write → DOM p50/p95/p99 (n=${domLat.n})`,
        value: `${ms(domLat.p50)} / ${ms(domLat.p95)} / ${ms(domLat.p99)}`,
        target: "p95 ≤ 150 ms",
        met: domLat.p95 <= 150,
      },
      ...longTasksRow("Overview page", domLat.longTasks),
      ...detailPageRows(detail),
      ...serverStallRows("while the overview and detail pages took changes", stallsOf.pages),
      {
        metric: "Live overhead over the floor (DOM p95 − watch p95)",
        value: ms(domLat.p95 - floorLat.p95),
        target: "≤ 100 ms",
        met: domLat.p95 - floorLat.p95 <= 100,
      },
      {
        metric: `Overview API p50/p95, 10 clients (n=${api.n}, errors ${api.errors})`,
        value: `${ms(api.p50)} / ${ms(api.p95)}`,
        target: "p95 ≤ 100 ms",
        met: api.p95 <= 100 && api.errors === 0,
      },
      ...pluginHealthRows(run, pluginHealth, pluginHealthColdMs, pluginHealthComputeMs),
      ...serverStallRows("under the overview and plugin-health API load", stallsOf.apis),
      ...serverStallRows(`over ${P.churnSeconds} s of churn alone`, stallsOf.churn),
      {
        metric: "First load: time to the first rollout row",
        value: Number.isFinite(firstLoad.firstRowMs) ? ms(firstLoad.firstRowMs) : "no row within 60 s",
        target: "≤ 1.0 s",
        met: firstLoad.firstRowMs <= 1000,
      },
      {
        metric: "First load: JS transferred",
        value: Number.isFinite(firstLoad.jsBytes) ? `${(firstLoad.jsBytes / 1024).toFixed(0)} KiB` : "not measured",
        target: "",
        met: null,
      },
      { metric: `Server RSS after warm-up (${total} Rollouts)`, value: mb(warmRss), target: "≤ 500 MB", met: warmRss <= 500 * 1024 * 1024 },
      {
        metric: `Server RSS after ${P.churnSeconds} s of churn`,
        value: mb(churnRss),
        target: "≤ 500 MB",
        met: churnRss <= 500 * 1024 * 1024,
      },
      {
        metric: "Bytes per watched Rollout ((warm − empty fleet) / Rollouts)",
        value: `${((warmRss - baselineRss) / total / 1024).toFixed(1)} KiB`,
        target: "",
        met: null,
      },
    );
    Object.assign(figures, {
      sseLat,
      floorLat,
      domLat,
      detail,
      firstLoad,
      api,
      pluginHealth,
      pluginHealthColdMs,
      pluginHealthComputeMs,
      pluginHealthSteadyComputeMs,
      serverStalls,
      serverHeld,
      serverHeldOwn,
      warmRss,
      churnRss,
      baselineRss,
    });
    const chartName = short ? "short-latency-cdf.svg" : "latency-cdf.svg";
    run.writeChart(
      chartName,
      latencyCdfChart(
        { floor: floorLat.samples, sse: sseLat.samples, dom: domLat.samples },
        `${total} Rollouts, ${P.rate} weight changes/s, ${new Date().toISOString().slice(0, 16)} UTC`,
      ),
    );
  } finally {
    await stack.stop();
  }
}
