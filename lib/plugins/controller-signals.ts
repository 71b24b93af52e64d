import { addValues } from "@/lib/metrics/counter-math";
import type { IncreaseSeries } from "@/lib/metrics/types";
import { addSignalSeries, type DerivedSignalSeries } from "./health";

/** The `rollout_events_total` reasons that tell a traffic-router plugin's calls apart. */
export const PLUGIN_EVENT_REASONS = ["TrafficWeightUpdated", "TrafficRoutingError", "WeightVerifyError"];

/**
 * The most values a one-of label filter sends to the source. Beyond it the query asks for every series of the metric
 * in the cluster and the answer is narrowed afterwards: a 250-name `name=~"a|b|…"` is slow for Prometheus to match,
 * and 5,000 Rollouts made the health page time out.
 */
export const MAX_FILTER_VALUES = 50;

export interface RolloutRef {
  namespace: string;
  name: string;
}

/** What one cluster's metrics source answered for the Rollouts that use traffic-router plugins there. */
export interface ClusterSignals {
  /** Per rollout key `ns/name`: derived signal series on the range. */
  byRollout: Map<string, DerivedSignalSeries>;
  burn1h: Map<string, DerivedSignalSeries>;
  burn24h: Map<string, DerivedSignalSeries>;
  latencyBuckets: IncreaseSeries[];
  error: string | null;
  latencyError: string | null;
}

export function emptyClusterSignals(): ClusterSignals {
  return { byRollout: new Map(), burn1h: new Map(), burn24h: new Map(), latencyBuckets: [], error: null, latencyError: null };
}

export function emptySignalSeries(length: number): DerivedSignalSeries {
  const nulls = () => Array.from({ length }, (): number | null => null);
  return { weightUpdates: nulls(), routingErrors: nulls(), verifyErrors: nulls(), reconcileErrors: nulls(), reconciles: nulls() };
}

/** `namespace/name` of a Rollout, the key signals are grouped under. */
export function rolloutRefKey(ref: { namespace: string | null; name: string }): string {
  return `${ref.namespace ?? ""}/${ref.name}`;
}

/** `namespace/name` of a series' labels. */
export function seriesRefKey(labels: Record<string, string>): string {
  return `${labels.namespace ?? ""}/${labels.name ?? ""}`;
}

/** The label filter for the Rollouts' series; a label with too many values is left out (see MAX_FILTER_VALUES). */
export function buildSignalFilter(rollouts: readonly RolloutRef[]): Record<string, string[]> {
  const filter: Record<string, string[]> = {};
  const namespaces = [...new Set(rollouts.map((r) => r.namespace))];
  const names = [...new Set(rollouts.map((r) => r.name))];
  if (namespaces.length <= MAX_FILTER_VALUES) filter.namespace = namespaces;
  if (names.length <= MAX_FILTER_VALUES) filter.name = names;
  return filter;
}

/**
 * The derived signal series of each wanted Rollout, from the three controller metrics grouped by namespace and name
 * (events also by reason). Series of Rollouts not wanted are dropped; a wanted Rollout without any series is absent.
 */
export function groupControllerSignals(input: {
  events: readonly IncreaseSeries[];
  reconcileErrors: readonly IncreaseSeries[];
  reconciles: readonly IncreaseSeries[];
  wanted: ReadonlySet<string>;
  length: number;
}): Map<string, DerivedSignalSeries> {
  const out = new Map<string, DerivedSignalSeries>();
  const entry = (labels: Record<string, string>) => {
    const key = seriesRefKey(labels);
    if (!input.wanted.has(key)) return null;
    let signals = out.get(key);
    if (!signals) out.set(key, (signals = emptySignalSeries(input.length)));
    return signals;
  };
  for (const s of input.events) {
    const signals = entry(s.labels);
    if (!signals) continue;
    if (s.labels.reason === "TrafficWeightUpdated") signals.weightUpdates = addValues(signals.weightUpdates, s.values);
    if (s.labels.reason === "TrafficRoutingError") signals.routingErrors = addValues(signals.routingErrors, s.values);
    if (s.labels.reason === "WeightVerifyError") signals.verifyErrors = addValues(signals.verifyErrors, s.values);
  }
  for (const s of input.reconcileErrors) {
    const signals = entry(s.labels);
    if (signals) signals.reconcileErrors = addValues(signals.reconcileErrors, s.values);
  }
  for (const s of input.reconciles) {
    const signals = entry(s.labels);
    if (signals) signals.reconciles = addValues(signals.reconciles, s.values);
  }
  return out;
}

/** The given Rollouts' signals added point by point (all null when none of them has any). */
export function sumSignals(byRollout: ReadonlyMap<string, DerivedSignalSeries>, keys: readonly string[], length: number): DerivedSignalSeries {
  return keys.reduce((acc, key) => {
    const signals = byRollout.get(key);
    return signals ? addSignalSeries(acc, signals) : acc;
  }, emptySignalSeries(length));
}
