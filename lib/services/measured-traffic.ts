import "server-only";
import { messageOf } from "@/lib/errors/message-of";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { alignRange, rangeTimestamps, type MetricsSource, type RangeSpec } from "@/lib/metrics/types";
import { resolvePluginSettings, type EffectivePluginSettings } from "@/lib/plugins/effective-settings";
import type { Finding } from "@/lib/plugins/findings";
import { findStuckRouter, selectMeasuredTrafficTemplate, type AppliedPoint, type MeasuredPoint } from "@/lib/plugins/measured-traffic";
import {
  batchMeasuredTraffic,
  buildMeasuredTrafficBatch,
  chooseStepSeconds,
  measureCanaryShare,
  planMeasuredTraffic,
  splitMeasuredTrafficBatch,
  type MeasuredTrafficPlan,
} from "@/lib/plugins/measured-traffic-query";
import {
  buildStuckRouterFinding,
  orderStuckRouterCandidates,
  planStuckRouterCheck,
  toAppliedPoints,
  type StuckRouterCheck,
} from "@/lib/plugins/stuck-router";
import { PrometheusError } from "@/lib/prometheus/client";
import type { MeasuredTraffic } from "@/lib/rollouts/detail-types";
import type { AppContext } from "@/lib/server/app-context";
import { createSharedResult } from "@/lib/server/shared-result";

export interface MeasuredTrafficQuery {
  cluster: string;
  namespace: string;
  name: string;
  fromMs: number;
  toMs: number;
}

/** The measured series of one Rollout for the detail chart's `measured` line (null without traffic routing). */
export async function getMeasuredTraffic(app: AppContext, input: MeasuredTrafficQuery): Promise<MeasuredTraffic | null> {
  const cluster = app.fleet.clusterOrThrow(input.cluster);
  const rollout = cluster.rollouts().find((r) => r.namespace === input.namespace && r.name === input.name);
  if (!rollout || rollout.trafficRouters.length === 0) return null;
  const range = alignRange(input.fromMs, input.toMs, chooseStepSeconds(input.toMs - input.fromMs));
  return (await measureTraffic(app, cluster, rollout, range)).measured;
}

interface MeasuredResult {
  measured: MeasuredTraffic;
  points: MeasuredPoint[];
  /** The queries were run and failed (not: there was nothing to query). */
  queryFailed?: boolean;
}

/** The ingress the NGINX template needs: only in the raw spec, not in the Rollout's view. */
function stableIngressOf(cluster: ClusterWatcher, rollout: FleetRollout): string | null {
  return cluster.rolloutProjection(rollout.namespace ?? "", rollout.name)?.stableIngress ?? null;
}

/** What measuring one Rollout's traffic gave: its points, or why the queries failed. */
interface Measurement {
  points: MeasuredPoint[];
  error: string | null;
}

/**
 * Measured canary share of one Rollout from its router's traffic metrics (Prometheus only), on the range's
 * timestamps, next to the request volume. A failed query is an error in the result, never thrown.
 */
async function measureTraffic(app: AppContext, cluster: ClusterWatcher, rollout: FleetRollout, range: RangeSpec): Promise<MeasuredResult> {
  const source = app.metricsSource(cluster.name);
  const plan = planMeasuredTraffic({
    rollout,
    stableIngress: stableIngressOf(cluster, rollout),
    settings: resolvePluginSettings(app.config.plugins, cluster.config.plugins),
    sourceSignal: source.signal,
    canQueryPromql: source.queryRange !== null,
  });
  if (!plan.ok) return { measured: { source: plan.source, error: plan.error, points: [] }, points: [] };
  // A plan is only ok where PromQL can be queried (canQueryPromql).
  const { points, error } = await measureOne(source.queryRange!, plan, range);
  if (error !== null) return { measured: { source: plan.source, error, points: [] }, points: [], queryFailed: true };
  const measured = points.map((p) => ({
    at: new Date(p.atMs).toISOString(),
    canaryPercent: p.canaryPercent,
    requestsPerSecond: p.requestsPerSecond,
  }));
  const traffic = points.some((p) => p.canaryPercent !== null);
  return { measured: { source: plan.source, error: null, points: measured, configureHint: traffic ? null : plan.configureHint }, points };
}

type QueryRange = NonNullable<MetricsSource["queryRange"]>;
type QueryablePlan = Extract<MeasuredTrafficPlan, { ok: true }>;

/** One Rollout's two queries, each its own request. */
async function measureOne(queryRange: QueryRange, plan: QueryablePlan, range: RangeSpec): Promise<Measurement> {
  try {
    const [canary, total] = await Promise.all([plan.canary, plan.total].map((q) => queryRange(q, range)));
    return { points: measureCanaryShare(rangeTimestamps(range), canary, total), error: null };
  } catch (err) {
    return { points: [], error: describeQueryFailure(plan, err) };
  }
}

function describeQueryFailure(plan: QueryablePlan, err: unknown): string {
  return `Prometheus query for ${plan.label} failed: ${messageOf(err)}`;
}

/**
 * Rollouts measured per request by the stuck-router check, the PromQL one request carries at most (about; a form
 * body far below Prometheus' limits), and the requests in flight per cluster. One request per Rollout and query
 * was 8,000 requests a pass at 5,000 Rollouts (20 clusters of 200 checked), about 25 s of Prometheus answering.
 * Prometheus evaluates a batch's queries one after the other within one request's timeout: 20 Rollouts (40 queries)
 * keep a batch far from it at this size, and a batch that times out is split (MIN_ROLLOUTS_SPLIT_ON_TIMEOUT).
 */
const MEASURE_BATCH_ROLLOUTS = 20;
const MEASURE_BATCH_CHARS = 48_000;
const MEASURE_BATCH_CONCURRENCY = 2;
/** A batch of more Rollouts than this that times out is asked again in halves; a smaller one fails. */
const MIN_ROLLOUTS_SPLIT_ON_TIMEOUT = 5;

/**
 * Several Rollouts' measured traffic, in batches of one request each (see buildMeasuredTrafficBatch), in `plans`'
 * order. When Prometheus cannot answer a batch, what it says decides what follows, so that one Rollout's query never
 * costs the others their measurement:
 * - refused as a bad query (a template that answers a scalar cannot be tagged, so every batch of it is): each Rollout
 *   is asked alone;
 * - an error while evaluating (a join of one Rollout's series that matches many-to-many, say): the batch is asked
 *   again in halves, down to the Rollout at fault, which gets the error;
 * - a timeout: in halves while a half holds more than MIN_ROLLOUTS_SPLIT_ON_TIMEOUT Rollouts, then the batch fails;
 * - unreachable or refusing the credentials: the batch's Rollouts fail alike, without one more request each.
 */
async function measureInBatches(queryRange: QueryRange, plans: readonly QueryablePlan[], range: RangeSpec): Promise<Measurement[]> {
  const results: Measurement[] = plans.map(() => ({ points: [], error: null }));
  const timestamps = rangeTimestamps(range);
  const queue = batchMeasuredTraffic(plans, MEASURE_BATCH_ROLLOUTS, MEASURE_BATCH_CHARS);
  const measureBatch = async (batch: number[]): Promise<void> => {
    if (batch.length === 1) {
      results[batch[0]] = await measureOne(queryRange, plans[batch[0]], range);
      return;
    }
    try {
      const answers = splitMeasuredTrafficBatch(
        await queryRange(buildMeasuredTrafficBatch(batch.map((index) => plans[index])), range),
        batch.length,
      );
      batch.forEach((index, k) => {
        results[index] = { points: measureCanaryShare(timestamps, answers[k].canary, answers[k].total), error: null };
      });
    } catch (err) {
      const kind = err instanceof PrometheusError ? err.kind : "upstream_error";
      if (kind === "bad_query") {
        queue.unshift(...batch.map((index) => [index]));
      } else if (kind === "upstream_error" || (kind === "timeout" && batch.length > MIN_ROLLOUTS_SPLIT_ON_TIMEOUT)) {
        const half = Math.ceil(batch.length / 2);
        queue.unshift(batch.slice(0, half), batch.slice(half));
      } else {
        for (const index of batch) results[index] = { points: [], error: describeQueryFailure(plans[index], err) };
      }
    }
  };
  const worker = async () => {
    for (let batch = queue.shift(); batch !== undefined; batch = queue.shift()) await measureBatch(batch);
  };
  await Promise.all(Array.from({ length: MEASURE_BATCH_CONCURRENCY }, worker));
  return results;
}

/** What one cluster's stuck-router check found, and what it could not check (shown on the plugins page). */
export interface StuckRouterResult {
  findings: Finding[];
  /** Why some Rollouts were not checked, or failed to be: empty when every routed Rollout was checked. */
  problems: string[];
}

/** Rollouts checked per cluster and pass, those with a canary weight applied first; the rest are named as skipped. */
const STUCK_MAX_ROLLOUTS = 200;

/**
 * `stuck-router` findings: measured canary share and applied weight differ by more than the tolerance for longer
 * than the configured time. Needs Prometheus (measured traffic). One check per cluster answers every request for
 * 20 s (kept in the app context); it says what it skipped and which measurements failed instead of hiding them.
 */
export async function findStuckRouters(app: AppContext, cluster: ClusterWatcher): Promise<StuckRouterResult> {
  const source = app.metricsSource(cluster.name);
  if (!source.queryRange) return { findings: [], problems: [] };
  const shared = app.serviceState.getOrCreate("measured-traffic:stuck-routers", () =>
    createSharedResult<StuckRouterResult>({
      compute: (name) => checkClusterRouters(app, app.fleet.clusterOrThrow(name)),
      freshMs: 20_000,
      staleMs: 20_000,
      now: () => app.now(),
    }),
  );
  return (await shared.get(cluster.name)).value;
}

async function checkClusterRouters(app: AppContext, cluster: ClusterWatcher): Promise<StuckRouterResult> {
  const source = app.metricsSource(cluster.name);
  if (!source.queryRange) return { findings: [], problems: [] };
  const settings = resolvePluginSettings(app.config.plugins, cluster.config.plugins);
  const check = planStuckRouterCheck(settings, app.now());
  const ordered = orderStuckRouterCandidates(cluster.rollouts());
  const candidates = ordered.slice(0, STUCK_MAX_ROLLOUTS);
  // A Rollout without the values its template needs has nothing to measure, so nothing to check.
  const planned = candidates.flatMap((rollout) => {
    const plan = planMeasuredTraffic({
      rollout,
      stableIngress: stableIngressOf(cluster, rollout),
      settings,
      sourceSignal: source.signal,
      canQueryPromql: true,
    });
    return plan.ok ? [{ rollout, plan }] : [];
  });
  const measurements = await measureInBatches(
    source.queryRange,
    planned.map((p) => p.plan),
    check.range,
  );
  const measured = planned.flatMap((p, i) =>
    measurements[i].error === null && measurements[i].points.length > 0 ? [{ ...p, points: measurements[i].points }] : [],
  );
  const weights = await app.repos.rolloutSamples.listWeightsSince(
    cluster.name,
    measured.map(({ rollout }) => ({ namespace: rollout.namespace ?? "", name: rollout.name })),
    new Date(check.range.startMs),
  );
  const routerCheck: RouterCheck = { cluster, settings, sourceSignal: source.signal, check };
  const findings: Finding[] = [];
  for (const { rollout, points } of measured) {
    const live = rollout.appliedWeights ? { atMs: check.range.startMs, canaryPercent: rollout.appliedWeights.canaryPercent } : null;
    const applied = toAppliedPoints(weights.get(`${rollout.namespace ?? ""}/${rollout.name}`) ?? [], live);
    const finding = findStuckRouterFinding(routerCheck, rollout, points, applied);
    if (finding) findings.push(finding);
  }
  const failures = planned.flatMap(({ rollout }, i) => {
    const error = measurements[i].error;
    return error === null ? [] : [`${rollout.namespace}/${rollout.name}: ${error}`];
  });
  const problems: string[] = [];
  if (ordered.length > candidates.length)
    problems.push(
      `stuck-router check: ${ordered.length - candidates.length} of ${ordered.length} routed Rollouts not checked this time (at most ${STUCK_MAX_ROLLOUTS}, those mid-canary first)`,
    );
  if (failures.length > 0)
    problems.push(
      `stuck-router check: ${failures.length} Rollout${failures.length === 1 ? "" : "s"} could not be measured (${failures[0]})`,
    );
  return { findings: findings.sort((a, b) => a.id.localeCompare(b.id)), problems };
}

interface RouterCheck {
  cluster: ClusterWatcher;
  settings: EffectivePluginSettings;
  sourceSignal: string;
  check: StuckRouterCheck;
}

/** The finding for one Rollout whose measured share has not followed its applied weight; null when it has. */
function findStuckRouterFinding(
  { cluster, settings, sourceSignal, check }: RouterCheck,
  rollout: FleetRollout,
  measured: readonly MeasuredPoint[],
  applied: readonly AppliedPoint[],
): Finding | null {
  const run = findStuckRouter({
    applied,
    measured,
    tolerancePercent: check.tolerancePercent,
    forSeconds: check.forSeconds,
    settleSeconds: check.settleSeconds,
  });
  if (!run) return null;
  return buildStuckRouterFinding({
    cluster: cluster.name,
    controllerNamespace: cluster.config.controllerNamespace,
    rollout,
    router: rollout.trafficRouters[0].name,
    templateKey: selectMeasuredTrafficTemplate(rollout.trafficRouters, settings.measuredTraffic.templates)?.template.key ?? "generic",
    sourceSignal,
    run,
    check,
  });
}
