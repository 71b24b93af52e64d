import { addValues } from "@/lib/metrics/counter-math";
import { GROUP_LABEL, PART_LABEL, type IncreaseQuery, type IncreaseSeries } from "@/lib/metrics/types";
import type { DerivedSignalSeries } from "./health";

/** The `rollout_events_total` reasons that tell a traffic-router plugin's calls apart. */
const PLUGIN_EVENT_REASONS = ["TrafficWeightUpdated", "TrafficRoutingError", "WeightVerifyError"];

/**
 * The most Rollouts a query of the recorded warnings names; beyond it the cluster's warnings in the window are read
 * and narrowed afterwards (a query of hundreds of OR terms is slow).
 */
export const MAX_FILTER_VALUES = 50;

export interface RolloutRef {
  namespace: string;
  name: string;
}

/** One plugin scope's signals, summed over its Rollouts by the metrics source. */
export interface ScopeSignals {
  series: DerivedSignalSeries;
  burn1h: DerivedSignalSeries;
  burn24h: DerivedSignalSeries;
  /** Increases of the reconcile histogram's buckets, one series per `le`. */
  latencyBuckets: IncreaseSeries[];
}

/** What one cluster's metrics source answered for the Rollouts that use traffic-router plugins there. */
export interface ClusterSignals {
  /** Per plugin: the signals of the Rollouts that use it in the cluster, summed (by Prometheus in its query). */
  byPlugin: Map<string, ScopeSignals>;
  error: string | null;
  latencyError: string | null;
}

export function emptyClusterSignals(): ClusterSignals {
  return { byPlugin: new Map(), error: null, latencyError: null };
}

export function emptyScopeSignals(length: number): ScopeSignals {
  return { series: emptySignalSeries(length), burn1h: emptySignalSeries(1), burn24h: emptySignalSeries(1), latencyBuckets: [] };
}

/** The controller metrics the derived signals come from, as the parts of one grouped query (see readGroupedSignals). */
export const SIGNAL_PARTS: readonly IncreaseQuery[] = [
  { metric: "rollout_events_total", filter: { reason: PLUGIN_EVENT_REASONS }, by: ["reason"] },
  { metric: "rollout_reconcile_error", by: [] },
  { metric: "rollout_reconcile_count", by: [] },
];

/** The reconcile histogram's buckets by `le`, as the one part of a grouped query. */
export const LATENCY_PART: IncreaseQuery = { metric: "rollout_reconcile_bucket", by: ["le"] };

const EVENT_SIGNAL: Readonly<Record<string, keyof DerivedSignalSeries>> = {
  TrafficWeightUpdated: "weightUpdates",
  TrafficRoutingError: "routingErrors",
  WeightVerifyError: "verifyErrors",
};

/** Which derived signal a series of a SIGNAL_PARTS answer is. */
function signalOf(labels: Record<string, string>): keyof DerivedSignalSeries | null {
  const part = labels[PART_LABEL];
  if (part === "0") return EVENT_SIGNAL[labels.reason ?? ""] ?? null;
  return part === "1" ? "reconcileErrors" : part === "2" ? "reconciles" : null;
}

/** The derived signal series of each group, from the answer to a grouped query of SIGNAL_PARTS. */
export function readGroupedSignals(series: readonly IncreaseSeries[], length: number): Map<string, DerivedSignalSeries> {
  const out = new Map<string, DerivedSignalSeries>();
  for (const s of series) {
    const key = s.labels[GROUP_LABEL];
    const signal = signalOf(s.labels);
    if (key === undefined || signal === null) continue;
    let signals = out.get(key);
    if (!signals) out.set(key, (signals = emptySignalSeries(length)));
    signals[signal] = addValues(signals[signal], s.values);
  }
  return out;
}

export function emptySignalSeries(length: number): DerivedSignalSeries {
  const nulls = () => Array.from({ length }, (): number | null => null);
  return { weightUpdates: nulls(), routingErrors: nulls(), verifyErrors: nulls(), reconcileErrors: nulls(), reconciles: nulls() };
}
