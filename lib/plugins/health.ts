import { addValues, sumValues } from "@/lib/metrics/counter-math";
import { classifyPluginRpcMethod, type PluginRpcMethod } from "./troubleshooting";

/** Per-window increases of the controller signals for the Rollouts that use one plugin, summed over them. */
export interface DerivedSignalSeries {
  /** rollout_events_total{reason="TrafficWeightUpdated"}: a weight change the plugin applied. */
  weightUpdates: Array<number | null>;
  /** rollout_events_total{reason="TrafficRoutingError"}: SetWeight failed. */
  routingErrors: Array<number | null>;
  /** rollout_events_total{reason="WeightVerifyError"}: VerifyWeight failed (the reconcile goes on). */
  verifyErrors: Array<number | null>;
  /** rollout_reconcile_error: every failed reconcile, including plugin failures that write no event. */
  reconcileErrors: Array<number | null>;
  /** rollout_reconcile_count: reconciles; each drives the plugin once (UpdateHash → SetWeight → VerifyWeight). */
  reconciles: Array<number | null>;
}

export interface CallOutcome {
  attempts: number;
  failures: number;
  successes: number;
  /** successes ÷ attempts; null without attempts. */
  successRate: number | null;
}

/**
 * Plugin call outcomes DERIVED from controller signals (upstream has no per-plugin RPC metric, reference §4.3):
 * failures = WeightVerifyError events + the larger of reconcile errors and TrafficRoutingError events (a failed
 * SetWeight both writes the event and fails the reconcile, so adding them would count it twice); attempts =
 * reconciles of those Rollouts, never fewer than weight updates + failures. Null when no signal had data.
 */
export function deriveCallOutcome(point: {
  weightUpdates: number | null;
  routingErrors: number | null;
  verifyErrors: number | null;
  reconcileErrors: number | null;
  reconciles: number | null;
}): CallOutcome | null {
  const values = Object.values(point);
  if (values.every((value) => value === null)) return null;
  const failures = (point.verifyErrors ?? 0) + Math.max(point.reconcileErrors ?? 0, point.routingErrors ?? 0);
  const attempts = Math.max(point.reconciles ?? 0, (point.weightUpdates ?? 0) + failures);
  const successes = Math.max(0, attempts - failures);
  return { attempts, failures, successes, successRate: attempts > 0 ? successes / attempts : null };
}

/** The outcome at every point of the range. */
export function deriveCallOutcomeSeries(signals: DerivedSignalSeries): Array<CallOutcome | null> {
  const length = Math.max(...Object.values(signals).map((values) => values.length));
  return Array.from({ length }, (_, i) =>
    deriveCallOutcome({
      weightUpdates: signals.weightUpdates[i] ?? null,
      routingErrors: signals.routingErrors[i] ?? null,
      verifyErrors: signals.verifyErrors[i] ?? null,
      reconcileErrors: signals.reconcileErrors[i] ?? null,
      reconciles: signals.reconciles[i] ?? null,
    }),
  );
}

/** The outcome over the whole range (signals summed first, then derived). */
export function deriveCallOutcomeTotal(signals: DerivedSignalSeries): CallOutcome | null {
  return deriveCallOutcome({
    weightUpdates: sumValues(signals.weightUpdates),
    routingErrors: sumValues(signals.routingErrors),
    verifyErrors: sumValues(signals.verifyErrors),
    reconcileErrors: sumValues(signals.reconcileErrors),
    reconciles: sumValues(signals.reconciles),
  });
}

/** Adds two plugins' (or two clusters') signals point by point, for fleet-wide health. */
export function addSignalSeries(a: DerivedSignalSeries, b: DerivedSignalSeries): DerivedSignalSeries {
  return {
    weightUpdates: addValues(a.weightUpdates, b.weightUpdates),
    routingErrors: addValues(a.routingErrors, b.routingErrors),
    verifyErrors: addValues(a.verifyErrors, b.verifyErrors),
    reconcileErrors: addValues(a.reconcileErrors, b.reconcileErrors),
    reconciles: addValues(a.reconciles, b.reconciles),
  };
}

export type BurnStatus = "ok" | "warning" | "critical" | "no-data";

export interface BurnRate {
  window: BurnWindow;
  /** Error rate ÷ error budget (1 − target); 1 spends the budget exactly at the SLO period's pace. */
  burnRate: number | null;
  errorRate: number | null;
  attempts: number;
  status: BurnStatus;
}

export type BurnWindow = "1h" | "24h";

/**
 * Thresholds of the multiwindow burn-rate alerts in Google's SRE workbook ("Alerting on SLOs"): 14.4× over 1 h
 * spends 2 % of a 30-day budget, 3× over 24 h spends 10 %. Above 1× the budget runs out before the period does.
 */
const CRITICAL_BURN: Readonly<Record<BurnRate["window"], number>> = { "1h": 14.4, "24h": 3 };

export function deriveBurnRate(window: BurnRate["window"], outcome: CallOutcome | null, target: number): BurnRate {
  if (!outcome || outcome.attempts === 0)
    return { window, burnRate: null, errorRate: null, attempts: outcome?.attempts ?? 0, status: "no-data" };
  const errorRate = outcome.failures / outcome.attempts;
  const burnRate = errorRate / (1 - target);
  const status: BurnStatus = burnRate >= CRITICAL_BURN[window] ? "critical" : burnRate > 1 ? "warning" : "ok";
  return { window, burnRate, errorRate, attempts: outcome.attempts, status };
}

export interface PluginWarningEvent {
  namespace: string;
  rollout: string;
  reason: string;
  message: string;
  count: number;
  lastAt: string;
}

export interface MethodFailureCount {
  method: PluginRpcMethod | "NoEvent";
  failures: number;
  /** Where the number comes from. */
  signal: string;
}

/**
 * Failures by traffic-router RPC, classified from Warning event messages (`failed to set weight via plugin: …`,
 * `Failed to verify weight: …`), weighted by the events' `count`. TrafficRoutingError is written for SetWeight
 * failures only, and `rollout_events_total` counts every one, while the Events API keeps what client-go's spam
 * filter lets through (25 per Rollout, then one per 5 minutes): failures the counter saw beyond the kept events are
 * added to SetWeight. Reconcile errors beyond the TrafficRoutingError count had no event at all (UpdateHash, plugin
 * start/ping, header/mirror routes, RemoveManagedRoutes): they are reported as `NoEvent`, since only the
 * controller log tells which call failed.
 */
export function countFailuresByMethod(
  events: readonly PluginWarningEvent[],
  reconcileErrors: number | null,
  routingErrors: number | null,
): MethodFailureCount[] {
  const counts = new Map<PluginRpcMethod, number>();
  let routingErrorEvents = 0;
  for (const event of events) {
    if (event.reason === "TrafficRoutingError") routingErrorEvents += event.count;
    const method = classifyPluginRpcMethod(event.message);
    if (method === "Unknown" && event.reason !== "TrafficRoutingError" && event.reason !== "WeightVerifyError") continue;
    counts.set(method, (counts.get(method) ?? 0) + event.count);
  }
  const dropped = Math.round(Math.max(0, (routingErrors ?? 0) - routingErrorEvents));
  const out: MethodFailureCount[] = [...counts.entries()].map(([method, failures]) => ({
    method,
    failures,
    signal: "Warning events on the Rollouts (message classified)",
  }));
  if (dropped > 0) {
    const setWeight = out.find((c) => c.method === "SetWeight");
    const signal = "rollout_events_total{reason=TrafficRoutingError} beyond the kept events (dropped by client-go's event spam filter)";
    if (setWeight) {
      setWeight.failures += dropped;
      setWeight.signal = `${setWeight.signal} + ${signal}`;
    } else {
      out.push({ method: "SetWeight", failures: dropped, signal });
    }
  }
  out.sort((a, b) => b.failures - a.failures);
  const silent = Math.max(0, (reconcileErrors ?? 0) - (routingErrors ?? 0));
  if (silent > 0) {
    out.push({
      method: "NoEvent",
      failures: Math.round(silent),
      signal: "rollout_reconcile_error − TrafficRoutingError events (no event is written)",
    });
  }
  return out;
}

export interface VerifySample {
  atMs: number;
  verified: boolean | null;
}

/**
 * How long a Rollout has reported `weights.verified: false` without a break, from its recorded samples in time
 * order (null when the latest sample is not `false`).
 */
export function deriveUnverifiedSince(samples: readonly VerifySample[]): number | null {
  if (samples.length === 0 || samples[samples.length - 1].verified !== false) return null;
  let since = samples[samples.length - 1].atMs;
  for (let i = samples.length - 1; i >= 0 && samples[i].verified === false; i--) since = samples[i].atMs;
  return since;
}
