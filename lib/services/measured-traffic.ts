import "server-only";
import type { Repositories } from "@/lib/db/repositories";
import { messageOf } from "@/lib/errors/message-of";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { alignRange, rangeTimestamps, type RangeSpec } from "@/lib/metrics/types";
import { resolvePluginSettings, type EffectivePluginSettings } from "@/lib/plugins/effective-settings";
import type { Finding } from "@/lib/plugins/findings";
import { findStuckRouter, selectMeasuredTrafficTemplate, type AppliedPoint, type MeasuredPoint } from "@/lib/plugins/measured-traffic";
import { chooseStepSeconds, measureCanaryShare, planMeasuredTraffic } from "@/lib/plugins/measured-traffic-query";
import {
  buildStuckRouterFinding,
  orderStuckRouterCandidates,
  planStuckRouterCheck,
  toAppliedPoints,
  type StuckRouterCheck,
} from "@/lib/plugins/stuck-router";
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
  try {
    const [canary, total] = await Promise.all([plan.canary, plan.total].map((q) => source.queryRange!(q, range)));
    const points = measureCanaryShare(rangeTimestamps(range), canary, total);
    const measured = points.map((p) => ({
      at: new Date(p.atMs).toISOString(),
      canaryPercent: p.canaryPercent,
      requestsPerSecond: p.requestsPerSecond,
    }));
    const traffic = points.some((p) => p.canaryPercent !== null);
    return { measured: { source: plan.source, error: null, points: measured, configureHint: traffic ? null : plan.configureHint }, points };
  } catch (err) {
    return {
      measured: { source: plan.source, error: `Prometheus query for ${plan.label} failed: ${messageOf(err)}`, points: [] },
      points: [],
      queryFailed: true,
    };
  }
}

/** Recorded applied weights from the range's start, with the one in force at its start first. */
async function loadAppliedPoints(repos: Repositories, cluster: string, rollout: FleetRollout, fromMs: number): Promise<AppliedPoint[]> {
  const rows = await repos.rolloutSamples.listForRollout(
    { cluster, namespace: rollout.namespace ?? "", name: rollout.name },
    new Date(fromMs),
  );
  const samples = rows.map((row) => ({ atMs: row.at.getTime(), canaryWeight: row.canaryWeight, maxWeight: row.maxWeight }));
  return toAppliedPoints(samples, rollout.appliedWeights ? { atMs: fromMs, canaryPercent: rollout.appliedWeights.canaryPercent } : null);
}

/** What one cluster's stuck-router check found, and what it could not check (shown on the plugins page). */
export interface StuckRouterResult {
  findings: Finding[];
  /** Why some Rollouts were not checked, or failed to be: empty when every routed Rollout was checked. */
  problems: string[];
}

/** Rollouts checked per cluster and pass, those with a canary weight applied first; the rest are named as skipped. */
const STUCK_MAX_ROLLOUTS = 200;
const STUCK_CONCURRENCY = 8;

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
  const settings = resolvePluginSettings(app.config.plugins, cluster.config.plugins);
  const check: RouterCheck = { cluster, settings, sourceSignal: source.signal, plan: planStuckRouterCheck(settings, app.now()) };
  const ordered = orderStuckRouterCandidates(cluster.rollouts());
  const candidates = ordered.slice(0, STUCK_MAX_ROLLOUTS);
  const findings: Finding[] = [];
  const failures: string[] = [];
  const queue = [...candidates];
  const worker = async () => {
    for (let rollout = queue.shift(); rollout !== undefined; rollout = queue.shift()) {
      const outcome = await checkStuckRouter(app, check, rollout);
      if (outcome.error) failures.push(`${rollout.namespace}/${rollout.name}: ${outcome.error}`);
      else if (outcome.finding) findings.push(outcome.finding);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STUCK_CONCURRENCY, candidates.length) }, worker));
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
  plan: StuckRouterCheck;
}

async function checkStuckRouter(
  app: AppContext,
  check: RouterCheck,
  rollout: FleetRollout,
): Promise<{ finding: Finding | null; error: string | null }> {
  const { cluster, plan } = check;
  const { points, measured, queryFailed } = await measureTraffic(app, cluster, rollout, plan.range);
  // A failed query is reported; a Rollout with nothing to query (no template values) has nothing to check.
  if (queryFailed) return { finding: null, error: measured.error };
  if (points.length === 0) return { finding: null, error: null };
  const applied = await loadAppliedPoints(app.repos, cluster.name, rollout, plan.range.startMs);
  const run = findStuckRouter({
    applied,
    measured: points,
    tolerancePercent: plan.tolerancePercent,
    forSeconds: plan.forSeconds,
    settleSeconds: plan.settleSeconds,
  });
  if (!run) return { finding: null, error: null };
  const finding = buildStuckRouterFinding({
    cluster: cluster.name,
    controllerNamespace: cluster.config.controllerNamespace,
    rollout,
    router: rollout.trafficRouters[0].name,
    templateKey: selectMeasuredTrafficTemplate(rollout.trafficRouters, check.settings.measuredTraffic.templates)?.template.key ?? "generic",
    sourceSignal: check.sourceSignal,
    run,
    check: plan,
  });
  return { finding, error: null };
}
