import { quantileSeries, sumSeriesBy, sumValues } from "@/lib/metrics/counter-math";
import { alignRange, rangeTimestamps, type IncreaseSeries, type RangeSpec } from "@/lib/metrics/types";
import { emptyScopeSignals, type ClusterSignals, type RolloutRef, type ScopeSignals } from "./controller-signals";
import { sloTargetOf, type EffectivePluginSettings } from "./effective-settings";
import {
  addSignalSeries,
  countFailuresByMethod,
  deriveBurnRate,
  deriveCallOutcomeSeries,
  deriveCallOutcomeTotal,
  deriveUnverifiedSince,
  type DerivedSignalSeries,
  type MethodFailureCount,
  type PluginWarningEvent,
  type VerifySample,
} from "./health";
import { buildPerRpcView, type PerRpcData } from "./per-rpc";
import type { PluginScope } from "./plugin-scopes";
import { attributeAttention } from "./router-attribution";
import { classifyPluginRpcMethod, explainPluginError } from "./troubleshooting";
import type {
  AffectedRolloutView,
  ComputedHealthReport,
  ComputedHealthView,
  DerivedHealth,
  HealthRange,
  LatencyView,
  Panel,
  SloView,
  UnverifiedRolloutView,
  WarningEventView,
} from "./view-types";

/*
 * The plugin health report, built from what was read: no I/O here. Per cluster, one view per plugin in use; fleet
 * wide, one more per plugin used in two clusters or more, summed over them.
 */

const DERIVED_SIGNAL =
  "DERIVED (upstream has no per-plugin RPC metric): rollout_events_total{reason=TrafficWeightUpdated|TrafficRoutingError|WeightVerifyError}, rollout_reconcile_error and rollout_reconcile_count of the Rollouts that use the plugin";
const LATENCY_SIGNAL =
  "rollout_reconcile histogram (whole reconcile incl. plugin RPCs; buckets end at 1 s) of the Rollouts that use the plugin";
const VERIFY_SIGNAL = "status.canary.weights.verified (live) and Rollscope's recorded samples (duration)";
const EVENTS_SIGNAL = "Warning Events on the Rollouts (kept by Rollscope's recorder beyond the cluster's event TTL)";

const RANGE_MS: Record<HealthRange, number> = { "15m": 15 * 60_000, "1h": 3_600_000, "6h": 6 * 3_600_000, "24h": 24 * 3_600_000 };
const STEP_SECONDS: Record<HealthRange, number> = { "15m": 30, "1h": 60, "6h": 300, "24h": 900 };
const MAX_WARNINGS = 30;
const MAX_REASONS = 5;

export interface HealthWindow {
  range: HealthRange;
  /** Step-aligned query range; each point covers the step that ends at it. */
  query: RangeSpec;
  timestamps: number[];
  /** Start of the first point's step: what the report covers, and where events are read from. */
  fromMs: number;
  nowMs: number;
}

/** The query range of a health range ending now, about 30 points of a step chosen per range. */
export function planHealthWindow(range: HealthRange, nowMs: number): HealthWindow {
  const stepSeconds = STEP_SECONDS[range];
  const query = alignRange(nowMs - RANGE_MS[range], nowMs, stepSeconds);
  return { range, query, timestamps: rangeTimestamps(query), fromMs: query.startMs - stepSeconds * 1000, nowMs };
}

/** What the collection read for one cluster: its signals, per-RPC numbers, source and settings. */
export interface ClusterHealthData {
  signals: ClusterSignals;
  perRpc: PerRpcData | null;
  /** The metrics source's signal text, e.g. `Prometheus http://… {cluster="prod-eu"}`. */
  sourceSignal: string;
  settings: EffectivePluginSettings;
}

export function toRolloutRefs(rollouts: PluginScope["rollouts"]): RolloutRef[] {
  return rollouts.map((r) => ({ namespace: r.namespace ?? "", name: r.name }));
}

/** A Rollout whose weights are not verified, with how long (from its recorded samples, in time order). */
export function describeUnverifiedRollout(
  cluster: string,
  ref: RolloutRef,
  samples: readonly VerifySample[],
  nowMs: number,
): UnverifiedRolloutView {
  const since = deriveUnverifiedSince(samples);
  return {
    cluster,
    ...ref,
    since: since === null ? null : new Date(since).toISOString(),
    seconds: since === null ? null : Math.round((nowMs - since) / 1000),
  };
}

/** What Rollscope recorded for one scope's Rollouts; null when the records could not be read. */
export interface ScopeRecords {
  events: readonly PluginWarningEvent[] | null;
  unverified: UnverifiedRolloutView[] | null;
}

/** A per-cluster view with the signals it was built from, for the fleet-wide sum. */
export interface BuiltClusterView {
  view: ComputedHealthView;
  signals: ScopeSignals;
}

/**
 * One view per plugin scope (plugin × cluster), from its cluster's collected data and the scope's records (`records`
 * in the order of `scopes`). A panel whose source failed carries the error and no data; the others still show (a
 * Prometheus outage fails the derived, SLO and latency panels, not the recorded warnings).
 */
export function buildClusterHealthViews(input: {
  window: HealthWindow;
  scopes: readonly PluginScope[];
  clusters: ReadonlyMap<string, ClusterHealthData>;
  records: readonly ScopeRecords[];
}): BuiltClusterView[] {
  return input.scopes.map((scope, i) => {
    const data = input.clusters.get(scope.cluster);
    if (!data) throw new Error(`no collected data for cluster ${scope.cluster}`);
    const signals = data.signals.byPlugin.get(scope.plugin) ?? emptyScopeSignals(input.window.timestamps.length);
    return { view: buildClusterHealthView(scope, data, signals, input.records[i], input.window), signals };
  });
}

function buildClusterHealthView(
  scope: PluginScope,
  data: ClusterHealthData,
  signals: ScopeSignals,
  records: ScopeRecords,
  window: HealthWindow,
): ComputedHealthView {
  const { events, unverified } = records;
  const signalText = `${DERIVED_SIGNAL}; ${data.sourceSignal}`;
  return {
    plugin: scope.plugin,
    cluster: scope.cluster,
    rollouts: toRolloutRefs(scope.rollouts).map((r) => ({ cluster: scope.cluster, ...r })),
    derived: panel(signalText, data.signals.error, buildDerivedHealth(signals.series, window.timestamps)),
    slo: panel(signalText, data.signals.error, buildSloView(signals, sloTargetOf(data.settings, scope.plugin))),
    failuresByMethod: panel(
      `${EVENTS_SIGNAL}; rollout_reconcile_error for failures without an event`,
      events ? null : "recorded events could not be read",
      events ? countFailuresByMethod(events, sumValues(signals.series.reconcileErrors), sumValues(signals.series.routingErrors)) : null,
    ),
    latency: panel(
      `${LATENCY_SIGNAL}; ${data.sourceSignal}`,
      data.signals.latencyError,
      buildLatencyView(signals.latencyBuckets, window.timestamps),
    ),
    perRpc: buildPerRpcPanel(data, scope.plugin, window.timestamps),
    verification: panel(VERIFY_SIGNAL, unverified ? null : "recorded samples could not be read", unverified ? { unverified } : null),
    warnings: panel(
      EVENTS_SIGNAL,
      events ? null : "recorded events could not be read",
      events ? toWarningViews(scope.cluster, events) : null,
    ),
    ...deriveAffectedRollouts(scope),
  };
}

/** The per-RPC panel where the cluster configures such a metric and it has this plugin's calls (or failed). */
function buildPerRpcPanel(data: ClusterHealthData, plugin: string, timestamps: readonly number[]): ComputedHealthView["perRpc"] {
  if (!data.perRpc) return null;
  const successOutcomes = data.settings.perRpc.successOutcomes;
  const built = panel(data.perRpc.signal, data.perRpc.error, buildPerRpcView(data.perRpc, plugin, successOutcomes, timestamps));
  return built.data === null && built.error === null ? null : built;
}

/**
 * Fleet-wide views: one per plugin used in at least two clusters, its signals summed over them. The SLO target is
 * the fleet-wide one; a cluster whose signals could not be read is named in the signal (`partial: …`).
 */
export function buildFleetHealthViews(
  built: readonly BuiltClusterView[],
  fleetSettings: EffectivePluginSettings,
  timestamps: readonly number[],
): ComputedHealthView[] {
  const byPlugin = new Map<string, BuiltClusterView[]>();
  for (const entry of built) byPlugin.set(entry.view.plugin, [...(byPlugin.get(entry.view.plugin) ?? []), entry]);
  return [...byPlugin.entries()]
    .filter(([, entries]) => entries.length >= 2)
    .map(([plugin, entries]) => buildFleetHealthView(plugin, entries, sloTargetOf(fleetSettings, plugin), timestamps));
}

function buildFleetHealthView(
  plugin: string,
  entries: readonly BuiltClusterView[],
  target: number,
  timestamps: readonly number[],
): ComputedHealthView {
  const views = entries.map((e) => e.view);
  const signals = addScopeSignals(
    entries.map((e) => e.signals),
    timestamps.length,
  );
  const errors = views.flatMap((v) => (v.derived.error ? [`${v.cluster}: ${v.derived.error}`] : []));
  const partial = errors.length > 0 ? ` (partial: ${errors.join("; ")})` : "";
  const signal = `${DERIVED_SIGNAL}; summed over ${views.map((v) => v.cluster).join(", ")}${partial}`;
  return {
    plugin,
    cluster: null,
    rollouts: views.flatMap((v) => v.rollouts),
    derived: panel(signal, null, buildDerivedHealth(signals.series, timestamps)),
    slo: panel(signal, null, buildSloView(signals, target)),
    failuresByMethod: panel(EVENTS_SIGNAL, null, mergeMethodCounts(views)),
    latency: panel(LATENCY_SIGNAL, null, buildLatencyView(signals.latencyBuckets, timestamps)),
    perRpc: null,
    verification: panel(VERIFY_SIGNAL, null, { unverified: views.flatMap((v) => v.verification.data?.unverified ?? []) }),
    warnings: panel(
      EVENTS_SIGNAL,
      null,
      views
        .flatMap((v) => v.warnings.data ?? [])
        .sort((a, b) => b.lastAt.localeCompare(a.lastAt))
        .slice(0, MAX_WARNINGS),
    ),
    affected: views.flatMap((v) => v.affected),
    otherProblems: views.flatMap((v) => v.otherProblems),
  };
}

function addScopeSignals(all: readonly ScopeSignals[], length: number): ScopeSignals {
  return all.reduce(
    (acc, s) => ({
      series: addSignalSeries(acc.series, s.series),
      burn1h: addSignalSeries(acc.burn1h, s.burn1h),
      burn24h: addSignalSeries(acc.burn24h, s.burn24h),
      latencyBuckets: [...acc.latencyBuckets, ...s.latencyBuckets],
    }),
    emptyScopeSignals(length),
  );
}

/** The report: fleet-wide views first, then one per plugin and cluster. */
export function assembleHealthReport(window: HealthWindow, views: ComputedHealthView[]): ComputedHealthReport {
  return {
    range: window.range,
    from: new Date(window.fromMs).toISOString(),
    to: new Date(window.query.endMs).toISOString(),
    stepSeconds: window.query.stepSeconds,
    computedAt: new Date(window.nowMs).toISOString(),
    refreshing: false,
    plugins: views,
  };
}

function panel<T>(signal: string, error: string | null, data: T | null): Panel<T> {
  return { signal, error, data: error ? null : data };
}

function buildDerivedHealth(signals: DerivedSignalSeries, timestamps: readonly number[]): DerivedHealth {
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

function buildSloView(signals: ScopeSignals, target: number): SloView {
  return {
    target,
    burn: [
      deriveBurnRate("1h", deriveCallOutcomeTotal(signals.burn1h), target),
      deriveBurnRate("24h", deriveCallOutcomeTotal(signals.burn24h), target),
    ],
  };
}

function buildLatencyView(buckets: readonly IncreaseSeries[], timestamps: readonly number[]): LatencyView {
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

function toWarningViews(cluster: string, events: readonly PluginWarningEvent[]): WarningEventView[] {
  return events
    .slice(0, MAX_WARNINGS)
    .map((e) => ({ cluster, ...e, method: classifyPluginRpcMethod(e.message), hint: explainPluginError(e.message) }));
}

/** Failures by method over several clusters: counts added per method, their signals joined once each. */
function mergeMethodCounts(views: readonly ComputedHealthView[]): MethodFailureCount[] {
  const counts = new Map<MethodFailureCount["method"], MethodFailureCount>();
  for (const view of views) {
    for (const entry of view.failuresByMethod.data ?? []) {
      const existing = counts.get(entry.method);
      const signal =
        existing && !existing.signal.includes(entry.signal) ? `${existing.signal}; ${entry.signal}` : (existing?.signal ?? entry.signal);
      counts.set(entry.method, { ...entry, signal, failures: (existing?.failures ?? 0) + entry.failures });
    }
  }
  return [...counts.values()].sort((a, b) => b.failures - a.failures);
}

/**
 * Which of the scope's Rollouts the router is hurting now, and which have problems of their own: each Rollout's
 * needs-attention reasons (the overview queue's, one definition for both pages) split by attributeAttention.
 */
export function deriveAffectedRollouts(scope: PluginScope): Pick<ComputedHealthView, "affected" | "otherProblems"> {
  const affected: AffectedRolloutView[] = [];
  const otherProblems: AffectedRolloutView[] = [];
  for (const rollout of scope.rollouts) {
    const { router, other } = attributeAttention(rollout, scope.plugin);
    const ref = { cluster: scope.cluster, namespace: rollout.namespace ?? "", name: rollout.name };
    if (router.length > 0) affected.push({ ...ref, reasons: router.slice(0, MAX_REASONS).map((r) => r.message) });
    if (other.length > 0) otherProblems.push({ ...ref, reasons: other.slice(0, MAX_REASONS).map((r) => r.message) });
  }
  return { affected, otherProblems };
}
