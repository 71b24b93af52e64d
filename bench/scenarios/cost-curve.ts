/**
 * The cost curve (`--sizes`): a stack of its own at each size, with the curve's figures only; the sizes, the table
 * and the chart are bench/cost-curve.ts's.
 */
import { costCurveChart, formatCurveTable, missingPoint, type CurvePoint, type CurveShape } from "../cost-curve";
import { latencyCdfChart, type LatencySamples } from "../latency-chart";
import { readTreeRss, sampled, sleep } from "../measure";
import { measureApi, startStack, waitForFleet, type BenchRun } from "../stack";
import { measureFirstLoad } from "./first-row";
import { measureDomLatency, measureLiveLatency } from "./live-latency";

/** One size of the cost curve: its stack with no Prometheus and no baseline, only the curve's four figures. */
async function measureCurvePoint(run: BenchRun, shape: CurveShape): Promise<{ point: CurvePoint; latency: LatencySamples }> {
  const { P } = run;
  const rollouts = shape.clusters * shape.rolloutsPerCluster;
  const stack = await startStack(run, { clusters: shape.clusters, rollouts: shape.rolloutsPerCluster, rate: P.rate });
  try {
    await waitForFleet(stack.app, rollouts);
    await sleep(3_000);
    const rssWarmBytes = readTreeRss(stack.app.pid()!);
    const { sseLat, floorLat } = await measureLiveLatency(run, stack);
    const firstLoad = await measureFirstLoad(stack.app).catch((err: unknown) => {
      console.error(`first load not measured: ${String(err).split("\n")[0]}`);
      return { firstRowMs: Number.NaN };
    });
    const domLat = await measureDomLatency(run, stack, P.samples).catch(() => sampled([]));
    const api = await measureApi(`${stack.app.url}/api/rollouts`, P.apiSeconds);
    await sleep(P.churnSeconds * 1000);
    const point: CurvePoint = {
      ...shape,
      rollouts,
      rssWarmBytes,
      rssAfterChurnBytes: readTreeRss(stack.app.pid()!),
      overviewP95Ms: api.p95,
      firstRowMs: firstLoad.firstRowMs,
      domP95Ms: domLat.p95,
    };
    return { point, latency: { floor: floorLat.samples, sse: sseLat.samples, dom: domLat.samples } };
  } finally {
    await stack.stop();
  }
}

/** The cost curve: every size in turn (a size that fails is reported as n/a); the table and the chart. */
export async function addCostCurve(run: BenchRun, shapes: CurveShape[], figures: Record<string, unknown>): Promise<string> {
  const { P } = run;
  const points: CurvePoint[] = [];
  const latencyBySize: Record<number, LatencySamples> = {};
  for (const shape of shapes) {
    const size = shape.clusters * shape.rolloutsPerCluster;
    console.log(`cost curve: ${shape.clusters} clusters × ${shape.rolloutsPerCluster} Rollouts, ${P.rate} weight changes/s…`);
    const measured = await measureCurvePoint(run, shape).catch((err: unknown) => {
      console.error(`cost curve at ${size}: not measured: ${String(err).split("\n")[0]}`);
      return null;
    });
    points.push(measured?.point ?? missingPoint(shape));
    if (measured) latencyBySize[size] = measured.latency;
  }
  const caption = `${P.rate} weight changes/s fleet-wide, ${P.churnSeconds} s of churn per size, ${new Date().toISOString().slice(0, 16)} UTC`;
  run.writeChart("cost-curve.svg", costCurveChart(points, caption));
  const largest = Math.max(...Object.keys(latencyBySize).map(Number));
  if (Number.isFinite(largest))
    run.writeChart("cost-curve-latency-cdf.svg", latencyCdfChart(latencyBySize[largest], `${largest} Rollouts (cost curve run)`));
  Object.assign(figures, { curve: points, curveLatency: latencyBySize });
  return formatCurveTable(points);
}
