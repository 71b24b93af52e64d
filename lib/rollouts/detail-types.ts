import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { FleetRollout } from "./view-model";

/** The contract of the rollout detail endpoints (`/api/clusters/{cluster}/rollouts/{namespace}/{name}[/history]`). */

export interface EventView {
  uid: string;
  type: "Normal" | "Warning";
  reason: string;
  message: string;
  count: number;
  firstAt: string;
  lastAt: string;
}

export interface AnalysisMeasurementView {
  value: string | null;
  phase: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface AnalysisMetricView {
  name: string;
  phase: string;
  message: string | null;
  successful: number;
  failed: number;
  inconclusive: number;
  measurements: AnalysisMeasurementView[];
}

export interface AnalysisRunView {
  name: string;
  phase: string;
  message: string | null;
  startedAt: string | null;
  /** Pod-template hash of the revision it analysed, from the `rollouts-pod-template-hash` label. */
  podTemplateHash: string | null;
  revision: string | null;
  /** "background" for spec.strategy.canary.analysis, "step" for an analysis step, or pre/post promotion. */
  kind: "step" | "background" | "prePromotion" | "postPromotion" | "unknown";
  metrics: AnalysisMetricView[];
}

export interface StepTimingView {
  index: number;
  label: string;
  enteredAt: string;
  leftAt: string | null;
  seconds: number;
}

export interface RevisionView {
  revision: string;
  startedAt: string;
  endedAt: string | null;
  outcome: "in-progress" | "promoted" | "aborted" | "superseded";
  /** Time spent per step, from the recorded timeline. */
  steps: StepTimingView[];
}

export interface RolloutDetail {
  rollout: FleetRollout;
  cluster: ClusterStateView;
  events: EventView[];
  analysisRuns: AnalysisRunView[];
  revisions: RevisionView[];
}

export const HISTORY_RANGES = ["15m", "1h", "6h", "24h", "7d"] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** One recorded state, weights as percentages of maxTrafficWeight. */
export interface WeightPoint {
  at: string;
  requested: number | null;
  canary: number | null;
  stable: number | null;
  verified: boolean | null;
  stepIndex: number | null;
  phase: string;
  revision: string | null;
}

export type TimelineMarkerKind = "step" | "pause" | "resume" | "abort" | "promote" | "revision" | "analysis" | "action";

export interface TimelineMarker {
  at: string;
  kind: TimelineMarkerKind;
  label: string;
  /** Who did it, for markers that come from the audit log. */
  actor?: string;
}

/** Measured canary share from Prometheus (plugins issue); null until a metrics source is configured. */
export interface MeasuredTraffic {
  source: string;
  error: string | null;
  /**
   * Set when the Rollout's router has no template of its own and the generic one found no traffic: how to tell
   * Rollscope which series the router's data plane exports (rather than a bare "no traffic").
   */
  configureHint?: string | null;
  points: Array<{ at: string; canaryPercent: number | null; requestsPerSecond: number | null }>;
}

export interface RolloutHistory {
  range: HistoryRange;
  from: string;
  to: string;
  points: WeightPoint[];
  markers: TimelineMarker[];
}
