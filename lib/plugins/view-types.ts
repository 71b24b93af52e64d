import type { MetricsSourceKind } from "@/lib/metrics/types";
import type { PluginEntryError, PluginKind, RegisteredPlugin } from "./config";
import type { Finding } from "./findings";
import type { BurnRate, BurnWindow, CallOutcome, MethodFailureCount } from "./health";
import type { TemplateOrigin } from "./measured-traffic";
import type { PluginErrorExplanation, PluginRpcMethod } from "./troubleshooting";
import type { ReferencingKind } from "./usage";

/** The contract of `/api/plugins` and `/api/plugins/health`. Every number carries the signal it comes from. */

export interface MetricsSourceView {
  kind: MetricsSourceKind;
  signal: string;
  ok: boolean;
  error: string | null;
  lastSuccessAt: string | null;
}

export interface PluginUserView {
  kind: ReferencingKind;
  namespace: string | null;
  name: string;
  path: string;
  viaTemplate: string | null;
}

export interface RegisteredPluginView extends RegisteredPlugin {
  usedBy: PluginUserView[];
}

export interface EntryErrorView extends PluginEntryError {
  hint: PluginErrorExplanation | null;
}

export interface ControllerView {
  podName: string | null;
  startedAt: string | null;
  crashLooping: boolean;
  /** The container's last termination or waiting message, when it crash-loops. */
  reason: string | null;
  hint: PluginErrorExplanation | null;
}

export interface PluginClusterView {
  cluster: string;
  label: string | null;
  connection: string;
  controllerNamespace: string;
  configMap: { present: boolean; resourceVersion: string | null; updatedAt: string | null };
  controller: ControllerView;
  /** True when upstream's controller would exit at start-up on this ConfigMap (log.Fatalf → crash loop). */
  crashLoopsOnConfig: boolean;
  entryErrors: EntryErrorView[];
  plugins: RegisteredPluginView[];
  /** Plugin names referenced by resources but not registered here. */
  unregistered: Array<{ kind: PluginKind; name: string; usedBy: PluginUserView[] }>;
  metrics: MetricsSourceView;
  /** Per-cluster problems reading what this page needs (partial failure is data). */
  errors: string[];
}

export type MatrixCellState = "registered" | "referenced-not-registered" | "invalid" | "absent";

export interface MatrixCell {
  state: MatrixCellState;
  location: string | null;
  version: string | null;
  sha256: boolean;
  usedBy: number;
  /** Findings about this plugin in this cluster, by severity. */
  critical: number;
  warning: number;
}

export interface FleetMatrixRow {
  kind: PluginKind;
  name: string;
  cells: Record<string, MatrixCell>;
}

export interface ConfigProblem {
  cluster: string | null;
  /** e.g. `plugins.measuredTraffic.templates.Istio.canary`. */
  template: string;
  message: string;
}

export interface PluginsOverview {
  generatedAt: string;
  clusters: PluginClusterView[];
  matrix: { clusters: string[]; rows: FleetMatrixRow[] };
  findings: Finding[];
  configProblems: ConfigProblem[];
}

/** A panel's data or why it has none; `signal` says where its numbers come from. */
export interface Panel<T> {
  signal: string;
  error: string | null;
  data: T | null;
}

export interface OutcomePoint extends Partial<CallOutcome> {
  at: string;
  /** TrafficWeightUpdated events in the window: weight changes the plugin applied. */
  weightUpdates: number | null;
  successRate: number | null;
}

export interface DerivedHealth {
  points: OutcomePoint[];
  total: CallOutcome | null;
  weightUpdates: number | null;
}

export interface SloView {
  target: number;
  burn: BurnRate[];
}

export interface LatencyView {
  points: Array<{ at: string; p50: number | null; p95: number | null }>;
  p50: number | null;
  p95: number | null;
}

export interface PerRpcMethodView {
  method: string;
  calls: number;
  errors: number;
  /** Failed calls by outcome (`error`, `transport`, `timeout` for the meter), most first. */
  errorsByOutcome: Array<{ outcome: string; calls: number }>;
  successRate: number | null;
  p50: number | null;
  p95: number | null;
  /** Mean duration (histogram sum ÷ count), exact where quantiles are interpolated within a bucket; null without both. */
  mean: number | null;
}

export interface PerRpcView {
  /** `meter`: measured at the plugin's RPC boundary by rollscope-plugin-meter; `configured`: a metric the config names. */
  source: "meter" | "configured";
  methods: PerRpcMethodView[];
  points: Array<{ at: string; successRate: number | null; calls: number | null }>;
  total: { calls: number; errors: number; successRate: number | null };
  /** Restarts of the plugin process in the range (the meter counts them); null when not measured. */
  restarts: number | null;
}

export interface UnverifiedRolloutView {
  cluster: string;
  namespace: string;
  name: string;
  since: string | null;
  seconds: number | null;
}

export interface WarningEventView {
  cluster: string;
  namespace: string;
  rollout: string;
  reason: string;
  message: string;
  count: number;
  lastAt: string;
  method: PluginRpcMethod;
  hint: PluginErrorExplanation | null;
}

export interface AffectedRolloutView {
  cluster: string;
  namespace: string;
  name: string;
  reasons: string[];
}

export interface PluginHealthView {
  plugin: string;
  /** null for the fleet-wide aggregate. */
  cluster: string | null;
  /** How many Rollouts use the plugin here (fleet-wide: in every cluster) — of those the user may read. */
  rolloutCount: number;
  derived: Panel<DerivedHealth>;
  slo: Panel<SloView>;
  failuresByMethod: Panel<MethodFailureCount[]>;
  latency: Panel<LatencyView>;
  perRpc: Panel<PerRpcView> | null;
  verification: Panel<{ unverified: UnverifiedRolloutView[] }>;
  warnings: Panel<WarningEventView[]>;
  /** Rollouts the router is hurting now: their needs-attention reasons that are the router's (the overview's queue). */
  affected: AffectedRolloutView[];
  /**
   * Rollouts of this router with problems of their own (an analysis failure, an abort, a missing Service), shown
   * beside the router's health and left out of its derived figures while they have none of the router's.
   */
  otherProblems: AffectedRolloutView[];
}

/**
 * A health view as the server computes it: with the Rollouts behind its figures, which the read filter narrows for a
 * user; the answer sends their count (at 5,000 Rollouts the lists were most of a report's megabyte).
 */
export interface ComputedHealthView extends Omit<PluginHealthView, "rolloutCount"> {
  rollouts: Array<{ cluster: string; namespace: string; name: string }>;
}

export interface ComputedHealthReport extends Omit<PluginHealthReport, "plugins"> {
  plugins: ComputedHealthView[];
}

/** The report as the browser gets it: each view's Rollouts counted, not listed. */
export function toHealthAnswer(report: ComputedHealthReport): PluginHealthReport {
  return { ...report, plugins: report.plugins.map(({ rollouts, ...view }) => ({ ...view, rolloutCount: rollouts.length })) };
}

/**
 * How often a burn window is read again from Prometheus at most: each report in between uses the previous read (a
 * minute moves an hour's window by a sixtieth; five minutes a day's by a 288th).
 */
export const BURN_READ_EVERY_MS: Readonly<Record<BurnWindow, number>> = { "1h": 60_000, "24h": 5 * 60_000 };

export const HEALTH_RANGES = ["15m", "1h", "6h", "24h"] as const;
export type HealthRange = (typeof HEALTH_RANGES)[number];

export interface PluginHealthReport {
  range: HealthRange;
  from: string;
  to: string;
  stepSeconds: number;
  /** When the report's data was read. */
  computedAt: string;
  /** An older report answered while a newer one is computed: ask again shortly. */
  refreshing: boolean;
  /** How long computing the report took (its queries and the database reads), in milliseconds. */
  computeMs?: number;
  /** The last background refresh failed with this: the report is the last good one (still recent). */
  refreshError?: string;
  plugins: PluginHealthView[];
}

export type { TemplateOrigin };
