import "server-only";
import type { KubeConfig, KubernetesListObject, KubernetesObject } from "@kubernetes/client-node";
import { z } from "zod";
import type { ClusterConfig, RollscopeConfig } from "@/lib/config/schema";
import { getDb } from "@/lib/db/client";
import type { WatchedKind } from "@/lib/fleet/cluster-watcher";
import { getFleet } from "@/lib/fleet/fleet";
import type { ClusterStateView, FleetRollout } from "@/lib/fleet/types";
import { ApiError } from "@/lib/errors/api-error";
import { kubeRequest } from "@/lib/k8s/kube-request";
import { addValues, quantileSeries, sumSeriesBy, sumValues } from "@/lib/metrics/counter-math";
import { getMetricsSource } from "@/lib/metrics/sources";
import { alignRange, rangeTimestamps, type IncreaseSeries, type MetricsSource, type RangeSpec } from "@/lib/metrics/types";
import { checkPromqlSyntax, parsePromDuration, renderPromqlTemplate } from "@/lib/prometheus/promql";
import type { MeasuredTraffic } from "@/lib/rollouts/detail-types";
import { parseRollout } from "@/lib/rollouts/schema";
import { createSharedResult } from "@/lib/server/shared-result";
import type { PluginConfigMapInput } from "./config";
import { resolvePluginSettings, sloTargetOf, type EffectivePluginSettings } from "./effective-settings";
import { deriveFleetPluginFindings, type Finding } from "./findings";
import {
  addSignalSeries,
  countFailuresByMethod,
  deriveBurnRate,
  deriveCallOutcome,
  deriveCallOutcomeSeries,
  deriveCallOutcomeTotal,
  deriveUnverifiedSince,
  type DerivedSignalSeries,
  type PluginWarningEvent,
} from "./health";
import { computeMeasuredShare, findStuckRouter, selectMeasuredTrafficTemplate, type MeasuredPoint } from "./measured-traffic";
import { buildClusterRegistry, buildFleetMatrix } from "./registry";
import { checkPluginTemplates, describeTemplateError } from "./template-check";
import { classifyPluginRpcMethod, explainPluginError } from "./troubleshooting";
import type { AnalysisTemplateLike, RolloutLike } from "./usage";
import type {
  AffectedRolloutView,
  ConfigProblem,
  HealthRange,
  LatencyView,
  PerRpcView,
  PluginClusterView,
  PluginHealthReport,
  PluginHealthView,
  PluginsOverview,
  UnverifiedRolloutView,
  WarningEventView,
} from "./view-types";

/** What the service reads of one cluster: the watcher's caches and its kubeconfig transport. */
export interface PluginClusterSource {
  readonly name: string;
  readonly config: ClusterConfig;
  readonly clients: { kubeConfig: KubeConfig };
  state(): ClusterStateView;
  rollouts(): FleetRollout[];
  objects(kind: WatchedKind): KubernetesObject[];
}

export interface PluginServiceDeps {
  config: RollscopeConfig;
  clusters: readonly PluginClusterSource[];
  source(cluster: PluginClusterSource): MetricsSource;
  now(): number;
}

function defaultDeps(): PluginServiceDeps {
  const fleet = getFleet();
  return { config: fleet.config, clusters: fleet.clusters, source: (cluster) => getMetricsSource(fleet.config, cluster.config), now: Date.now };
}

function settingsOf(deps: PluginServiceDeps, cluster: PluginClusterSource): EffectivePluginSettings {
  return resolvePluginSettings(deps.config.plugins, cluster.config.plugins);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ── Registry ────────────────────────────────────────────────────────────────────────────────────────────────

const templateListSchema = z.object({
  items: z.array(
    z.looseObject({
      kind: z.string().optional(),
      metadata: z.looseObject({ name: z.string(), namespace: z.string().optional() }),
      spec: z
        .looseObject({
          metrics: z
            .array(z.looseObject({ name: z.string().optional(), provider: z.looseObject({ plugin: z.record(z.string(), z.unknown()).nullish() }).nullish() }))
            .nullish(),
        })
        .nullish(),
    }),
  ),
});

const configMapSchema = z.looseObject({
  metadata: z
    .looseObject({
      name: z.string().optional(),
      namespace: z.string().optional(),
      resourceVersion: z.string().optional(),
      creationTimestamp: z.string().optional(),
      managedFields: z.array(z.looseObject({ time: z.string().optional() })).optional(),
    })
    .optional(),
  data: z.record(z.string(), z.string()).optional(),
});

const templateCache = new Map<string, { atMs: number; templates: AnalysisTemplateLike[] }>();
const TEMPLATE_CACHE_MS = 30_000;

/** AnalysisTemplates and ClusterAnalysisTemplates (not watched by the fleet; read on demand, cached 30 s). */
async function listAnalysisTemplates(cluster: PluginClusterSource, nowMs: number): Promise<AnalysisTemplateLike[]> {
  const cached = templateCache.get(cluster.name);
  if (cached && nowMs - cached.atMs < TEMPLATE_CACHE_MS) return cached.templates;
  const read = async (path: string, kind: "AnalysisTemplate" | "ClusterAnalysisTemplate", optional: boolean) => {
    try {
      const list = templateListSchema.parse(await kubeRequest<KubernetesListObject<KubernetesObject>>(cluster.clients.kubeConfig, path));
      return list.items.map((item): AnalysisTemplateLike => ({ ...item, kind }));
    } catch (err) {
      if (optional && (err as { code?: number }).code === 404) return [];
      throw err;
    }
  };
  const templates = [
    ...(await read("/apis/argoproj.io/v1alpha1/analysistemplates", "AnalysisTemplate", false)),
    ...(await read("/apis/argoproj.io/v1alpha1/clusteranalysistemplates", "ClusterAnalysisTemplate", true)),
  ];
  templateCache.set(cluster.name, { atMs: nowMs, templates });
  return templates;
}

function readRollouts(cluster: PluginClusterSource): RolloutLike[] {
  return cluster.objects("rollouts").flatMap((obj) => {
    const parsed = parseRollout(obj);
    return parsed.ok ? [parsed.rollout] : [];
  });
}

function readConfigMap(cluster: PluginClusterSource): PluginConfigMapInput | null {
  const obj = cluster.objects("configmap").find((o) => o.metadata?.name === "argo-rollouts-config");
  if (!obj) return null;
  const parsed = configMapSchema.safeParse(obj);
  return parsed.success ? parsed.data : null;
}

async function describeCluster(deps: PluginServiceDeps, cluster: PluginClusterSource) {
  const errors: string[] = [];
  const templates = await listAnalysisTemplates(cluster, deps.now()).catch((err: unknown) => {
    errors.push(`AnalysisTemplates could not be listed (metric-provider plugin usage may be incomplete): ${messageOf(err)}`);
    return [];
  });
  const state = cluster.state();
  if (state.watches.configmap && state.watches.configmap.status !== "connected") {
    errors.push(`argo-rollouts-config is not being watched (${state.watches.configmap.status}): ${state.watches.configmap.error ?? "no detail"}`);
  }
  const registry = buildClusterRegistry({
    cluster: cluster.name,
    label: state.label,
    connection: state.connection,
    controllerNamespace: cluster.config.controllerNamespace,
    configMap: readConfigMap(cluster),
    controllerPods: cluster.objects("controllerPods"),
    rollouts: readRollouts(cluster),
    analysisTemplates: templates,
  });
  const source = deps.source(cluster);
  const status = await source.status().catch((err: unknown) => ({ ok: false, error: messageOf(err), lastSuccessAt: null }));
  const view: PluginClusterView = {
    ...registry.view,
    metrics: { kind: source.kind, signal: source.signal, ...status },
    errors,
  };
  return { view, findingsInput: registry.findingsInput };
}

/**
 * The plugins page: per cluster, what argo-rollouts-config registers (as the controller would parse it), who
 * uses each plugin, the controller's state; the fleet matrix; and every finding, including stuck routers.
 */
export async function getPluginsOverview(deps: PluginServiceDeps = defaultDeps()): Promise<PluginsOverview> {
  const described = await Promise.all(deps.clusters.map((cluster) => describeCluster(deps, cluster)));
  const findings = deriveFleetPluginFindings(described.map((d) => d.findingsInput));
  const stuck = await Promise.all(deps.clusters.map((cluster) => findStuckRouters(deps, cluster).catch(() => [])));
  const all: Finding[] = [...findings, ...stuck.flat()];
  const clusters = described.map((d) => d.view);
  return {
    generatedAt: new Date(deps.now()).toISOString(),
    clusters,
    matrix: buildFleetMatrix(clusters, all),
    findings: all,
    configProblems: listConfigProblems(deps),
  };
}

/** Configured PromQL templates that do not parse: fleet-wide ones once, a cluster's own under its name. */
function listConfigProblems(deps: PluginServiceDeps): ConfigProblem[] {
  const problems = new Map<string, ConfigProblem>();
  for (const problem of checkPluginTemplates(null, resolvePluginSettings(deps.config.plugins, undefined))) {
    problems.set(`${problem.template}|${problem.message}`, problem);
  }
  for (const cluster of deps.clusters) {
    if (!cluster.config.plugins) continue;
    for (const problem of checkPluginTemplates(cluster.name, settingsOf(deps, cluster))) {
      if (!problems.has(`${problem.template}|${problem.message}`)) problems.set(`${cluster.name}|${problem.template}|${problem.message}`, problem);
    }
  }
  return [...problems.values()];
}

// ── Measured traffic ────────────────────────────────────────────────────────────────────────────────────────

interface MeasuredResult {
  measured: MeasuredTraffic;
  points: MeasuredPoint[];
}

/**
 * Measured canary share of one Rollout from its router's traffic metrics (Prometheus only), on the range's
 * timestamps, next to the request volume.
 */
async function measureTraffic(
  deps: PluginServiceDeps,
  cluster: PluginClusterSource,
  rollout: FleetRollout,
  range: RangeSpec,
): Promise<MeasuredResult> {
  const settings = settingsOf(deps, cluster);
  const source = deps.source(cluster);
  const empty = (sourceText: string, error: string | null): MeasuredResult => ({ measured: { source: sourceText, error, points: [] }, points: [] });
  const selected = selectMeasuredTrafficTemplate(rollout.trafficRouters, settings.measuredTraffic.templates);
  if (!selected) return empty("no traffic router", "this Rollout has no traffic routing, so there is no traffic split to measure");
  const { template, router } = selected;
  const label = `template ${template.key} (${template.origin}) for router ${router}`;
  if (!source.queryRange) {
    return empty(
      `${label}; ${source.signal}`,
      "measured traffic needs Prometheus: the controller's own metrics carry no request counts. Configure prometheus for this cluster.",
    );
  }
  const raw = parseRollout(cluster.objects("rollouts").find((o) => o.metadata?.namespace === rollout.namespace && o.metadata?.name === rollout.name));
  const nginx = raw.ok ? raw.rollout.spec?.strategy?.canary?.trafficRouting?.nginx : undefined;
  const values = {
    namespace: rollout.namespace,
    rollout: rollout.name,
    canaryService: rollout.canary?.canaryService ?? null,
    stableService: rollout.canary?.stableService ?? null,
    canaryHash: rollout.appliedWeights?.canary.podTemplateHash ?? rollout.currentPodHash,
    stableHash: rollout.appliedWeights?.stable.podTemplateHash ?? rollout.stableRS,
    stableIngress: nginx?.stableIngress ?? nginx?.stableIngresses?.[0] ?? null,
    window: settings.measuredTraffic.window,
  };
  const queries: string[] = [];
  for (const part of ["canary", "total"] as const) {
    const path = `plugins.measuredTraffic.templates.${template.key}.${part}`;
    const rendered = renderPromqlTemplate(template[part], values);
    if (!rendered.ok) {
      return empty(`${label}; ${source.signal}`, `${path} needs ${rendered.missing.map((v) => `\${${v}}`).join(", ")}, which this Rollout does not set`);
    }
    const syntax = checkPromqlSyntax(rendered.promql);
    if (syntax) return empty(`${label}; ${source.signal}`, describeTemplateError(path, template[part]) ?? `${path}: ${syntax.message}`);
    queries.push(rendered.promql);
  }
  try {
    const [canary, total] = await Promise.all(queries.map((q) => source.queryRange!(q, range)));
    const length = rangeTimestamps(range).length;
    const sum = (series: IncreaseSeries[]) => series.reduce<Array<number | null>>((acc, s) => addValues(acc, s.values), Array.from({ length }, () => null));
    const points = computeMeasuredShare(rangeTimestamps(range), sum(canary), sum(total));
    return {
      measured: {
        source: `${label}; ${source.signal}`,
        error: null,
        points: points.map((p) => ({ at: new Date(p.atMs).toISOString(), canaryPercent: p.canaryPercent, requestsPerSecond: p.requestsPerSecond })),
      },
      points,
    };
  } catch (err) {
    return empty(`${label}; ${source.signal}`, `Prometheus query for ${label} failed: ${messageOf(err)}`);
  }
}

function clusterOrThrow(deps: PluginServiceDeps, name: string): PluginClusterSource {
  const cluster = deps.clusters.find((c) => c.name === name);
  if (!cluster) throw new ApiError("not_found", `no cluster named "${name}" is configured`);
  return cluster;
}

/** Step for a chart range: about 120 points, never below 15 s. */
export function chooseStepSeconds(rangeMs: number): number {
  const candidates = [15, 30, 60, 120, 300, 600, 900, 1800, 3600];
  return candidates.find((step) => rangeMs / (step * 1000) <= 120) ?? 3600;
}

/** The measured series of one Rollout for the detail chart's `measured` line (null without traffic routing). */
export async function getMeasuredTraffic(
  clusterName: string,
  namespace: string,
  name: string,
  fromMs: number,
  toMs: number,
  deps: PluginServiceDeps = defaultDeps(),
): Promise<MeasuredTraffic | null> {
  const cluster = clusterOrThrow(deps, clusterName);
  const rollout = cluster.rollouts().find((r) => r.namespace === namespace && r.name === name);
  if (!rollout || rollout.trafficRouters.length === 0) return null;
  const range = alignRange(fromMs, toMs, chooseStepSeconds(toMs - fromMs));
  return (await measureTraffic(deps, cluster, rollout, range)).measured;
}

async function loadAppliedPoints(cluster: string, rollout: FleetRollout, fromMs: number) {
  const rows = await getDb().rolloutSample.findMany({
    where: { cluster, namespace: rollout.namespace ?? "", name: rollout.name, at: { gte: new Date(fromMs) } },
    orderBy: [{ at: "asc" }, { id: "asc" }],
    select: { at: true, canaryWeight: true, maxWeight: true },
  });
  const before = await getDb().rolloutSample.findFirst({
    where: { cluster, namespace: rollout.namespace ?? "", name: rollout.name, at: { lt: new Date(fromMs) } },
    orderBy: [{ at: "desc" }, { id: "desc" }],
    select: { at: true, canaryWeight: true, maxWeight: true },
  });
  const points = [...(before ? [before] : []), ...rows].map((row) => ({
    atMs: row.at.getTime(),
    canaryPercent: row.canaryWeight === null ? null : (row.canaryWeight / row.maxWeight) * 100,
  }));
  if (points.length === 0 && rollout.appliedWeights) points.push({ atMs: fromMs, canaryPercent: rollout.appliedWeights.canaryPercent });
  return points;
}

const stuckCache = new Map<string, { atMs: number; findings: Finding[] }>();
const STUCK_CACHE_MS = 20_000;
const STUCK_MAX_ROLLOUTS = 50;

/**
 * `stuck-router` findings: measured canary share and applied weight differ by more than the tolerance for longer
 * than the configured time. Needs Prometheus (measured traffic); cached for 20 s per cluster.
 */
export async function findStuckRouters(deps: PluginServiceDeps, cluster: PluginClusterSource): Promise<Finding[]> {
  const source = deps.source(cluster);
  if (!source.queryRange) return [];
  const now = deps.now();
  const cached = stuckCache.get(cluster.name);
  if (cached && now - cached.atMs < STUCK_CACHE_MS) return cached.findings;
  const settings = settingsOf(deps, cluster);
  const { tolerancePercent, forSeconds } = settings.stuckRouter;
  const lookbackMs = Math.max(2 * forSeconds * 1000, 10 * 60_000);
  const range = alignRange(now - lookbackMs, now, 15);
  const candidates = cluster
    .rollouts()
    .filter((r) => r.trafficRouters.length > 0 && r.appliedWeights !== null)
    .slice(0, STUCK_MAX_ROLLOUTS);
  const findings: Finding[] = [];
  for (const rollout of candidates) {
    const { points } = await measureTraffic(deps, cluster, rollout, range);
    if (points.length === 0) continue;
    const applied = await loadAppliedPoints(cluster.name, rollout, range.startMs);
    const settleSeconds = (parsePromDuration(settings.measuredTraffic.window) ?? 60) + range.stepSeconds;
    const run = findStuckRouter({ applied, measured: points, tolerancePercent, forSeconds, settleSeconds });
    if (!run) continue;
    const router = rollout.trafficRouters[0].name;
    const minutes = Math.round((run.untilMs - run.sinceMs) / 60_000);
    findings.push({
      id: `stuck-router/${cluster.name}/${rollout.namespace}/${rollout.name}`,
      severity: "critical",
      kind: "stuck-router",
      title: `${router} is not following the weight of ${rollout.namespace}/${rollout.name}`,
      detail:
        `Applied canary weight ${run.appliedPercent.toFixed(0)} %, measured canary share ${run.measuredPercent.toFixed(1)} % ` +
        `(signal: ${settings.measuredTraffic.templates[selectMeasuredTrafficTemplate(rollout.trafficRouters, settings.measuredTraffic.templates)?.template.key ?? "generic"]?.key ?? "generic"} template on ${source.signal}) ` +
        `for ${minutes >= 1 ? `${minutes} min` : `${Math.round((run.untilMs - run.sinceMs) / 1000)} s`} since ${new Date(run.sinceMs).toISOString()}; ` +
        `the tolerance is ${tolerancePercent} points for ${forSeconds} s. The controller believes the split is applied, ` +
        "but the data plane sends traffic elsewhere, so analysis measures the wrong mix.",
      affected: [{ cluster: cluster.name, namespace: rollout.namespace ?? undefined, name: rollout.name, plugin: router, resourceKind: "Rollout" }],
      fix:
        `Inspect the routing resources ${router} manages for this Rollout (weights on the route/VirtualService/Ingress) and the ` +
        `router's own logs; if the plugin reports success without applying the weight, upgrade or restart it ` +
        `(kubectl rollout restart deployment -n ${cluster.config.controllerNamespace} argo-rollouts), or abort the rollout until it is fixed.`,
    });
  }
  stuckCache.set(cluster.name, { atMs: now, findings });
  return findings;
}

// ── Health ──────────────────────────────────────────────────────────────────────────────────────────────────

const RANGE_MS: Record<HealthRange, number> = { "15m": 15 * 60_000, "1h": 3_600_000, "6h": 6 * 3_600_000, "24h": 24 * 3_600_000 };
const HEALTH_STEP: Record<HealthRange, number> = { "15m": 30, "1h": 60, "6h": 300, "24h": 900 };
const EVENT_REASONS = ["TrafficWeightUpdated", "TrafficRoutingError", "WeightVerifyError"];

interface RolloutRef {
  namespace: string;
  name: string;
}

interface ClusterSignals {
  /** Per rollout key `ns/name`: derived signal series on the range. */
  byRollout: Map<string, DerivedSignalSeries>;
  burn1h: Map<string, DerivedSignalSeries>;
  burn24h: Map<string, DerivedSignalSeries>;
  latencyBuckets: IncreaseSeries[];
  error: string | null;
  latencyError: string | null;
}

function emptySignals(length: number): DerivedSignalSeries {
  const nulls = () => Array.from({ length }, (): number | null => null);
  return { weightUpdates: nulls(), routingErrors: nulls(), verifyErrors: nulls(), reconcileErrors: nulls(), reconciles: nulls() };
}

function refKey(labels: Record<string, string>): string {
  return `${labels.namespace ?? ""}/${labels.name ?? ""}`;
}

/** The derived signals of every given Rollout of one cluster, over the range and the two burn windows. */
/**
 * The most values a one-of label filter sends to the source. Beyond it the query asks for every series of the metric
 * in the cluster and the answer is narrowed here (`wanted`): a 250-name `name=~"a|b|…"` is slow for Prometheus to
 * match, and 5,000 Rollouts made the health page time out.
 */
const MAX_FILTER_VALUES = 50;

function signalFilter(rollouts: readonly RolloutRef[]): Record<string, string[]> {
  const filter: Record<string, string[]> = {};
  const namespaces = [...new Set(rollouts.map((r) => r.namespace))];
  const names = [...new Set(rollouts.map((r) => r.name))];
  if (namespaces.length <= MAX_FILTER_VALUES) filter.namespace = namespaces;
  if (names.length <= MAX_FILTER_VALUES) filter.name = names;
  return filter;
}

async function querySignals(source: MetricsSource, rollouts: readonly RolloutRef[], range: RangeSpec, nowMs: number): Promise<ClusterSignals> {
  const filter = signalFilter(rollouts);
  const wanted = new Set(rollouts.map((r) => `${r.namespace}/${r.name}`));
  const collect = async (window: RangeSpec) => {
    const length = rangeTimestamps(window).length;
    const [events, errors, reconciles] = await Promise.all([
      source.increase({ metric: "rollout_events_total", filter: { ...filter, reason: EVENT_REASONS }, by: ["namespace", "name", "reason"] }, window),
      source.increase({ metric: "rollout_reconcile_error", filter, by: ["namespace", "name"] }, window),
      source.increase({ metric: "rollout_reconcile_count", filter, by: ["namespace", "name"] }, window),
    ]);
    const out = new Map<string, DerivedSignalSeries>();
    const entry = (labels: Record<string, string>) => {
      const key = refKey(labels);
      if (!wanted.has(key)) return null;
      let signals = out.get(key);
      if (!signals) out.set(key, (signals = emptySignals(length)));
      return signals;
    };
    for (const s of events) {
      const signals = entry(s.labels);
      if (!signals) continue;
      if (s.labels.reason === "TrafficWeightUpdated") signals.weightUpdates = addValues(signals.weightUpdates, s.values);
      if (s.labels.reason === "TrafficRoutingError") signals.routingErrors = addValues(signals.routingErrors, s.values);
      if (s.labels.reason === "WeightVerifyError") signals.verifyErrors = addValues(signals.verifyErrors, s.values);
    }
    for (const s of errors) {
      const signals = entry(s.labels);
      if (signals) signals.reconcileErrors = addValues(signals.reconcileErrors, s.values);
    }
    for (const s of reconciles) {
      const signals = entry(s.labels);
      if (signals) signals.reconciles = addValues(signals.reconciles, s.values);
    }
    return out;
  };
  const result: ClusterSignals = { byRollout: new Map(), burn1h: new Map(), burn24h: new Map(), latencyBuckets: [], error: null, latencyError: null };
  if (rollouts.length === 0) return result;
  try {
    // The widest window first: a scrape-mode source then answers the other two from the rows it just read.
    result.burn24h = await collect({ startMs: nowMs, endMs: nowMs, stepSeconds: 86_400 });
    [result.byRollout, result.burn1h] = await Promise.all([collect(range), collect({ startMs: nowMs, endMs: nowMs, stepSeconds: 3600 })]);
  } catch (err) {
    result.error = messageOf(err);
  }
  try {
    const buckets = await source.increase({ metric: "rollout_reconcile_bucket", filter, by: ["namespace", "name", "le"] }, range);
    result.latencyBuckets = buckets.filter((s) => wanted.has(refKey(s.labels)));
  } catch (err) {
    result.latencyError = messageOf(err);
  }
  return result;
}

function sumSignals(map: Map<string, DerivedSignalSeries>, keys: readonly string[], length: number): DerivedSignalSeries {
  return keys.reduce((acc, key) => (map.has(key) ? addSignalSeries(acc, map.get(key)!) : acc), emptySignals(length));
}

function latencyOf(buckets: readonly IncreaseSeries[], timestamps: readonly number[]): LatencyView {
  const length = timestamps.length;
  const p50 = quantileSeries(0.5, buckets, length);
  const p95 = quantileSeries(0.95, buckets, length);
  const totals = sumSeriesBy(buckets, ["le"]).map((s) => ({ labels: s.labels, values: [sumValues(s.values)] }));
  return {
    points: timestamps.map((t, i) => ({ at: new Date(t).toISOString(), p50: p50[i], p95: p95[i] })),
    p50: quantileSeries(0.5, totals, 1)[0],
    p95: quantileSeries(0.95, totals, 1)[0],
  };
}

interface PerRpcData {
  calls: IncreaseSeries[];
  buckets: IncreaseSeries[];
  error: string | null;
  signal: string;
}

async function queryPerRpc(source: MetricsSource, settings: EffectivePluginSettings, plugins: readonly string[], range: RangeSpec): Promise<PerRpcData | null> {
  const perRpc = settings.perRpc;
  if (!perRpc) return null;
  const window = `${range.stepSeconds}s`;
  const usePromql = source.queryRange !== null && perRpc.promql?.calls !== undefined;
  const signal = usePromql
    ? `configured per-RPC PromQL (plugins.perRpc.promql) on ${source.signal} — not an upstream metric`
    : `${perRpc.callsMetric ?? "?"}${perRpc.durationMetric ? ` / ${perRpc.durationMetric}` : ""} (configured per-RPC metric, not upstream) from ${source.signal}`;
  try {
    if (usePromql && source.queryRange) {
      const render = (text: string, path: string) => {
        const rendered = renderPromqlTemplate(text, { window });
        if (!rendered.ok) throw new Error(`${path} needs ${rendered.missing.join(", ")}`);
        const problem = describeTemplateError(path, text);
        if (problem) throw new Error(problem);
        return rendered.promql;
      };
      const calls = await source.queryRange(render(perRpc.promql!.calls!, "plugins.perRpc.promql.calls"), range);
      const buckets = perRpc.promql?.durationBuckets
        ? await source.queryRange(render(perRpc.promql.durationBuckets, "plugins.perRpc.promql.durationBuckets"), range)
        : [];
      return { calls, buckets, error: null, signal };
    }
    if (!perRpc.callsMetric) {
      return { calls: [], buckets: [], error: "plugins.perRpc.promql needs Prometheus; set callsMetric for the scrape mode", signal };
    }
    const calls = await source.increase({ metric: perRpc.callsMetric, filter: { plugin: plugins }, by: ["plugin", "method", "outcome"] }, range);
    const buckets = perRpc.durationMetric
      ? await source.increase({ metric: `${perRpc.durationMetric}_bucket`, filter: { plugin: plugins }, by: ["plugin", "method", "le"] }, range)
      : [];
    return { calls, buckets, error: null, signal };
  } catch (err) {
    return { calls: [], buckets: [], error: messageOf(err), signal };
  }
}

function perRpcView(data: PerRpcData, plugin: string, successOutcomes: readonly string[], timestamps: readonly number[]): PerRpcView | null {
  const calls = data.calls.filter((s) => s.labels.plugin === plugin);
  if (calls.length === 0) return null;
  const buckets = data.buckets.filter((s) => s.labels.plugin === plugin);
  const methods = [...new Set(calls.map((s) => s.labels.method ?? ""))].sort();
  const isSuccess = (s: IncreaseSeries) => successOutcomes.includes(s.labels.outcome ?? "");
  const length = timestamps.length;
  const sum = (series: IncreaseSeries[]) => series.reduce<Array<number | null>>((acc, s) => addValues(acc, s.values), Array.from({ length }, () => null));
  const allCalls = sum(calls);
  const okCalls = sum(calls.filter(isSuccess));
  const totalCalls = sumValues(allCalls) ?? 0;
  const totalOk = sumValues(okCalls) ?? 0;
  return {
    methods: methods.map((method) => {
      const mine = calls.filter((s) => s.labels.method === method);
      const n = sumValues(sum(mine)) ?? 0;
      const ok = sumValues(sum(mine.filter(isSuccess))) ?? 0;
      const mineBuckets = buckets.filter((s) => s.labels.method === method);
      const totals = sumSeriesBy(mineBuckets, ["le"]).map((s) => ({ labels: s.labels, values: [sumValues(s.values)] }));
      return {
        method,
        calls: n,
        errors: Math.max(0, n - ok),
        successRate: n > 0 ? ok / n : null,
        p50: totals.length > 0 ? quantileSeries(0.5, totals, 1)[0] : null,
        p95: totals.length > 0 ? quantileSeries(0.95, totals, 1)[0] : null,
      };
    }),
    points: timestamps.map((t, i) => {
      const n = allCalls[i];
      return { at: new Date(t).toISOString(), calls: n, successRate: n !== null && n > 0 ? (okCalls[i] ?? 0) / n : null };
    }),
    total: { calls: totalCalls, errors: Math.max(0, totalCalls - totalOk), successRate: totalCalls > 0 ? totalOk / totalCalls : null },
  };
}

async function loadWarningEvents(cluster: string, rollouts: readonly RolloutRef[], fromMs: number): Promise<PluginWarningEvent[]> {
  if (rollouts.length === 0) return [];
  // A plugin used by hundreds of Rollouts would make a query of hundreds of OR terms; read the cluster's warnings
  // in the window instead and keep this plugin's.
  const few = rollouts.length <= MAX_FILTER_VALUES;
  const wanted = new Set(rollouts.map((r) => `${r.namespace}/${r.name}`));
  const found = await getDb().rolloutEvent.findMany({
    where: {
      cluster,
      type: "Warning",
      lastAt: { gte: new Date(fromMs) },
      ...(few ? { OR: rollouts.map((r) => ({ namespace: r.namespace, rollout: r.name })) } : {}),
    },
    orderBy: { lastAt: "desc" },
    take: few ? 500 : 5_000,
  });
  const rows = few ? found : found.filter((row) => wanted.has(`${row.namespace}/${row.rollout}`)).slice(0, 500);
  return rows.map((row) => ({ namespace: row.namespace, rollout: row.rollout, reason: row.reason, message: row.message, count: row.count, lastAt: row.lastAt.toISOString() }));
}

async function loadUnverified(cluster: string, rollouts: readonly FleetRollout[], nowMs: number): Promise<UnverifiedRolloutView[]> {
  const out: UnverifiedRolloutView[] = [];
  for (const rollout of rollouts) {
    if (rollout.appliedWeights?.verified !== false) continue;
    const rows = await getDb().rolloutSample.findMany({
      where: { cluster, namespace: rollout.namespace ?? "", name: rollout.name },
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: 500,
      select: { at: true, verified: true },
    });
    const since = deriveUnverifiedSince(rows.reverse().map((row) => ({ atMs: row.at.getTime(), verified: row.verified })));
    out.push({
      cluster,
      namespace: rollout.namespace ?? "",
      name: rollout.name,
      since: since === null ? null : new Date(since).toISOString(),
      seconds: since === null ? null : Math.round((nowMs - since) / 1000),
    });
  }
  return out;
}

const DERIVED_SIGNAL =
  "DERIVED (upstream has no per-plugin RPC metric): rollout_events_total{reason=TrafficWeightUpdated|TrafficRoutingError|WeightVerifyError}, rollout_reconcile_error and rollout_reconcile_count of the Rollouts that use the plugin";
const LATENCY_SIGNAL = "rollout_reconcile histogram (whole reconcile incl. plugin RPCs; buckets end at 1 s) of the Rollouts that use the plugin";
const VERIFY_SIGNAL = "status.canary.weights.verified (live) and Rollscope's recorded samples (duration)";
const EVENTS_SIGNAL = "Warning Events on the Rollouts (kept by Rollscope's recorder beyond the cluster's event TTL)";

interface PluginScope {
  cluster: PluginClusterSource;
  plugin: string;
  rollouts: FleetRollout[];
}

/** Traffic-router plugins in use per cluster, from each Rollout's spec (not rollout_info, which is empty for plugins). */
function listPluginScopes(deps: PluginServiceDeps, filter: { cluster?: string; plugin?: string }): PluginScope[] {
  const scopes: PluginScope[] = [];
  for (const cluster of deps.clusters) {
    if (filter.cluster && cluster.name !== filter.cluster) continue;
    const byPlugin = new Map<string, FleetRollout[]>();
    for (const rollout of cluster.rollouts()) {
      for (const router of rollout.trafficRouters) {
        if (router.kind !== "plugin" || (filter.plugin && router.name !== filter.plugin)) continue;
        byPlugin.set(router.name, [...(byPlugin.get(router.name) ?? []), rollout]);
      }
    }
    for (const [plugin, rollouts] of [...byPlugin.entries()].sort(([a], [b]) => a.localeCompare(b))) scopes.push({ cluster, plugin, rollouts });
  }
  return scopes;
}

function panel<T>(signal: string, error: string | null, data: T | null): { signal: string; error: string | null; data: T | null } {
  return { signal, error, data: error ? null : data };
}

function keysOf(rollouts: readonly FleetRollout[]): string[] {
  return rollouts.map((r) => `${r.namespace}/${r.name}`);
}

/**
 * Health per traffic-router plugin, per cluster and fleet-wide, over a range: derived call outcomes and success
 * rate, SLO burn (1 h, 24 h), failures by RPC, reconcile latency, weight verification, Warning events, affected
 * Rollouts, and per-RPC numbers where the cluster's config names such a metric. A failing source fails only the
 * panels that need it.
 */
export async function getPluginHealth(
  input: { range: HealthRange; cluster?: string; plugin?: string },
  deps: PluginServiceDeps = defaultDeps(),
): Promise<PluginHealthReport> {
  if (input.cluster) clusterOrThrow(deps, input.cluster);
  const nowMs = deps.now();
  const stepSeconds = HEALTH_STEP[input.range];
  const range = alignRange(nowMs - RANGE_MS[input.range], nowMs, stepSeconds);
  const timestamps = rangeTimestamps(range);
  const length = timestamps.length;
  const scopes = listPluginScopes(deps, input);
  const clusters = [...new Set(scopes.map((s) => s.cluster))];

  const perCluster = new Map<string, { signals: ClusterSignals; perRpc: PerRpcData | null; source: MetricsSource; settings: EffectivePluginSettings }>();
  await Promise.all(
    clusters.map(async (cluster) => {
      const source = deps.source(cluster);
      const settings = settingsOf(deps, cluster);
      const mine = scopes.filter((s) => s.cluster === cluster);
      const refs = [...new Map(mine.flatMap((s) => s.rollouts).map((r) => [`${r.namespace}/${r.name}`, { namespace: r.namespace ?? "", name: r.name }])).values()];
      const [signals, perRpc] = await Promise.all([
        querySignals(source, refs, range, nowMs),
        queryPerRpc(source, settings, mine.map((s) => s.plugin), range),
      ]);
      const status = source.kind === "scrape" ? await source.status().catch(() => null) : null;
      if (status && !status.ok && signals.error === null && status.lastSuccessAt === null) signals.error = `no successful scrape yet: ${status.error ?? "unknown"}`;
      perCluster.set(cluster.name, { signals, perRpc, source, settings });
    }),
  );

  const views: PluginHealthView[] = [];
  const fleet = new Map<string, { signals: DerivedSignalSeries; burn1h: DerivedSignalSeries; burn24h: DerivedSignalSeries; buckets: IncreaseSeries[]; views: PluginHealthView[] }>();
  for (const scope of scopes) {
    const data = perCluster.get(scope.cluster.name)!;
    const keys = keysOf(scope.rollouts);
    const refs = scope.rollouts.map((r) => ({ namespace: r.namespace ?? "", name: r.name }));
    const signals = sumSignals(data.signals.byRollout, keys, length);
    const burn1h = sumSignals(data.signals.burn1h, keys, 1);
    const burn24h = sumSignals(data.signals.burn24h, keys, 1);
    const buckets = data.signals.latencyBuckets.filter((s) => keys.includes(refKey(s.labels)));
    const signalText = `${DERIVED_SIGNAL}; ${data.source.signal}`;
    const target = sloTargetOf(data.settings, scope.plugin);

    const [events, unverified] = await Promise.all([
      loadWarningEvents(scope.cluster.name, refs, range.startMs - stepSeconds * 1000).catch(() => null),
      loadUnverified(scope.cluster.name, scope.rollouts, nowMs).catch(() => null),
    ]);
    const warnings: WarningEventView[] | null = events
      ? events.slice(0, 30).map((e) => ({ cluster: scope.cluster.name, ...e, method: classifyPluginRpcMethod(e.message), hint: explainPluginError(e.message) }))
      : null;
    const view: PluginHealthView = {
      plugin: scope.plugin,
      cluster: scope.cluster.name,
      rollouts: refs.map((r) => ({ cluster: scope.cluster.name, ...r })),
      derived: panel(signalText, data.signals.error, buildDerived(signals, timestamps)),
      slo: panel(signalText, data.signals.error, {
        target,
        burn: [deriveBurnRate("1h", deriveCallOutcomeTotal(burn1h), target), deriveBurnRate("24h", deriveCallOutcomeTotal(burn24h), target)],
      }),
      failuresByMethod: panel(
        `${EVENTS_SIGNAL}; rollout_reconcile_error for failures without an event`,
        events ? null : "recorded events could not be read",
        events ? countFailuresByMethod(events, sumValues(signals.reconcileErrors), sumValues(signals.routingErrors)) : null,
      ),
      latency: panel(`${LATENCY_SIGNAL}; ${data.source.signal}`, data.signals.latencyError, latencyOf(buckets, timestamps)),
      perRpc: data.perRpc
        ? panel(data.perRpc.signal, data.perRpc.error, perRpcView(data.perRpc, scope.plugin, data.settings.perRpc?.successOutcomes ?? ["success"], timestamps))
        : null,
      verification: panel(VERIFY_SIGNAL, unverified ? null : "recorded samples could not be read", unverified ? { unverified } : null),
      warnings: panel(EVENTS_SIGNAL, warnings ? null : "recorded events could not be read", warnings),
      affected: deriveAffected(scope, data.signals.byRollout, events ?? [], unverified ?? [], nowMs),
    };
    if (view.perRpc && view.perRpc.data === null && view.perRpc.error === null) view.perRpc = null;
    views.push(view);

    const agg = fleet.get(scope.plugin) ?? { signals: emptySignals(length), burn1h: emptySignals(1), burn24h: emptySignals(1), buckets: [], views: [] };
    agg.signals = addSignalSeries(agg.signals, signals);
    agg.burn1h = addSignalSeries(agg.burn1h, burn1h);
    agg.burn24h = addSignalSeries(agg.burn24h, burn24h);
    agg.buckets.push(...buckets);
    agg.views.push(view);
    fleet.set(scope.plugin, agg);
  }

  const fleetViews: PluginHealthView[] = [];
  if (!input.cluster) {
    for (const [plugin, agg] of fleet) {
      if (agg.views.length < 2) continue;
      const target = deps.config.plugins.slo?.plugins?.[plugin] ?? deps.config.plugins.slo?.target ?? 0.99;
      const errors = agg.views.map((v) => v.derived.error && `${v.cluster}: ${v.derived.error}`).filter((e): e is string => Boolean(e));
      const partial = errors.length > 0 ? `partial: ${errors.join("; ")}` : null;
      const signal = `${DERIVED_SIGNAL}; summed over ${agg.views.map((v) => v.cluster).join(", ")}${partial ? ` (${partial})` : ""}`;
      fleetViews.push({
        plugin,
        cluster: null,
        rollouts: agg.views.flatMap((v) => v.rollouts),
        derived: panel(signal, null, buildDerived(agg.signals, timestamps)),
        slo: panel(signal, null, {
          target,
          burn: [deriveBurnRate("1h", deriveCallOutcomeTotal(agg.burn1h), target), deriveBurnRate("24h", deriveCallOutcomeTotal(agg.burn24h), target)],
        }),
        failuresByMethod: panel(EVENTS_SIGNAL, null, mergeMethodCounts(agg.views)),
        latency: panel(LATENCY_SIGNAL, null, latencyOf(agg.buckets, timestamps)),
        perRpc: null,
        verification: panel(VERIFY_SIGNAL, null, { unverified: agg.views.flatMap((v) => v.verification.data?.unverified ?? []) }),
        warnings: panel(
          EVENTS_SIGNAL,
          null,
          agg.views
            .flatMap((v) => v.warnings.data ?? [])
            .sort((a, b) => b.lastAt.localeCompare(a.lastAt))
            .slice(0, 30),
        ),
        affected: agg.views.flatMap((v) => v.affected),
      });
    }
  }

  return {
    range: input.range,
    from: new Date(range.startMs - stepSeconds * 1000).toISOString(),
    to: new Date(range.endMs).toISOString(),
    stepSeconds,
    computedAt: new Date(nowMs).toISOString(),
    refreshing: false,
    plugins: [...fleetViews, ...views],
  };
}

function buildDerived(signals: DerivedSignalSeries, timestamps: readonly number[]) {
  const outcomes = deriveCallOutcomeSeries(signals);
  return {
    points: timestamps.map((t, i) => ({
      at: new Date(t).toISOString(),
      ...(outcomes[i] ?? {}),
      successRate: outcomes[i]?.successRate ?? null,
      weightUpdates: signals.weightUpdates[i] ?? null,
    })),
    total: deriveCallOutcomeTotal(signals),
    weightUpdates: sumValues(signals.weightUpdates),
  };
}

function mergeMethodCounts(views: readonly PluginHealthView[]) {
  const counts = new Map<string, { method: NonNullable<PluginHealthView["failuresByMethod"]["data"]>[number]["method"]; failures: number; signal: string }>();
  for (const view of views) {
    for (const entry of view.failuresByMethod.data ?? []) {
      const existing = counts.get(entry.method);
      const signal = existing && !existing.signal.includes(entry.signal) ? `${existing.signal}; ${entry.signal}` : (existing?.signal ?? entry.signal);
      counts.set(entry.method, { ...entry, signal, failures: (existing?.failures ?? 0) + entry.failures });
    }
  }
  return [...counts.values()].sort((a, b) => b.failures - a.failures);
}

const RECENT_MS = 10 * 60_000;

/** Rollouts the plugin is hurting now: recent failures or warnings, unverified weights, plugin-related attention. */
function deriveAffected(
  scope: PluginScope,
  byRollout: ReadonlyMap<string, DerivedSignalSeries>,
  events: readonly PluginWarningEvent[],
  unverified: readonly UnverifiedRolloutView[],
  nowMs: number,
): AffectedRolloutView[] {
  const reasons = new Map<string, Set<string>>();
  const add = (namespace: string, name: string, reason: string) => {
    const key = `${namespace}/${name}`;
    if (!reasons.has(key)) reasons.set(key, new Set());
    reasons.get(key)!.add(reason);
  };
  for (const event of events) {
    if (nowMs - Date.parse(event.lastAt) <= RECENT_MS) add(event.namespace, event.rollout, `${event.reason}: ${event.message}`);
  }
  for (const entry of unverified) add(entry.namespace, entry.name, `weight not verified${entry.seconds !== null ? ` for ${entry.seconds} s` : ""}`);
  for (const rollout of scope.rollouts) {
    if (rollout.parseError) add(rollout.namespace ?? "", rollout.name, `unreadable spec: ${rollout.parseError}`);
    if (rollout.phase === "Degraded" && /plugin/i.test(rollout.message)) add(rollout.namespace ?? "", rollout.name, rollout.message);
  }
  for (const rollout of scope.rollouts) {
    const signals = byRollout.get(`${rollout.namespace}/${rollout.name}`);
    if (!signals) continue;
    const last = deriveCallOutcome({
      weightUpdates: signals.weightUpdates.at(-1) ?? null,
      routingErrors: signals.routingErrors.at(-1) ?? null,
      verifyErrors: signals.verifyErrors.at(-1) ?? null,
      reconcileErrors: signals.reconcileErrors.at(-1) ?? null,
      reconciles: signals.reconciles.at(-1) ?? null,
    });
    if (last && last.failures > 0) {
      add(rollout.namespace ?? "", rollout.name, `${Math.round(last.failures)} failed plugin calls in the last window (derived)`);
    }
  }
  return [...reasons.entries()].map(([key, set]) => {
    const [namespace, name] = key.split("/");
    return { cluster: scope.cluster.name, namespace, name, reasons: [...set].slice(0, 5) };
  });
}

/**
 * One health report answers every request for the same view: its inputs change at Prometheus' scrape interval at
 * best, while a report costs ten range queries per cluster (seconds at 20 clusters × 250 Rollouts on the benchmark
 * machine). Fresh for 10 s; up to 60 s old it is still answered at once, marked `refreshing`, while one refresh runs
 * (the page shows `computedAt` and asks again 5 s later); concurrent requests share the computation in flight.
 */
const sharedHealth = createSharedResult<PluginHealthReport>({
  compute: (key) => getPluginHealth(JSON.parse(key) as { range: HealthRange; cluster?: string; plugin?: string }),
  freshMs: 10_000,
  staleMs: 60_000,
});

export async function getSharedPluginHealth(input: { range: HealthRange; cluster?: string; plugin?: string }): Promise<PluginHealthReport> {
  // An unknown cluster is refused before it can take a place among the shared reports.
  if (input.cluster) clusterOrThrow(defaultDeps(), input.cluster);
  const { value, refreshing } = await sharedHealth.get(JSON.stringify({ range: input.range, cluster: input.cluster, plugin: input.plugin }));
  return { ...value, refreshing };
}
