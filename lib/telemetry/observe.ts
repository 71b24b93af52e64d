import "server-only";
import { metrics, secondsSince } from "./metrics-registry";

/** The states a watch reports (lib/k8s/resource-watch's WatchState), each a series of rollscope_watch_state. */
const WATCH_STATES = ["connecting", "connected", "reconnecting", "forbidden", "unreachable"] as const;

export function observeWatchState(cluster: string, kind: string, state: string): void {
  for (const s of WATCH_STATES) metrics().watchState.set({ cluster, kind, state: s }, s === state ? 1 : 0);
}

export function countWatchRelist(cluster: string, kind: string): void {
  metrics().watchRelists.inc({ cluster, kind });
}

/** The counter of one watch's objects, bound once (a watch may deliver thousands a second). */
export function watchEventCounter(cluster: string, kind: string): () => void {
  const counter = metrics().watchEvents.labels({ cluster, kind });
  return () => counter.inc();
}

/** Counts an open live stream; call the returned function once when it closes. */
export function trackSseClient(): () => void {
  metrics().sseClients.inc();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    metrics().sseClients.dec();
  };
}

export function observeRecorderWrite(startedAt: number, ok: boolean): void {
  metrics().recorderWriteDuration.observe({ outcome: ok ? "ok" : "error" }, secondsSince(startedAt));
}

/** One Prometheus query: its duration, and its reason when it failed (null when it succeeded). */
export function observePrometheusQuery(startedAt: number, failure: string | null): void {
  metrics().prometheusQueryDuration.observe({ outcome: failure === null ? "ok" : "error" }, secondsSince(startedAt));
  if (failure !== null) metrics().prometheusQueryErrors.inc({ reason: failure });
}

/** A grouped range read of a Prometheus: `full`, only its unsettled `tail`, or `none` (every step already settled). */
export function countRangeRead(kind: "full" | "tail" | "none"): void {
  metrics().prometheusRangeReads.inc({ read: kind });
}

/** One plugin health report's computation: its metrics, its stored records (both at once) and the whole, in ms. */
export function observePluginHealthCompute(metricsMs: number, recordsMs: number, reportMs: number): void {
  const histogram = metrics().pluginHealthCompute;
  histogram.observe({ part: "metrics" }, metricsMs / 1000);
  histogram.observe({ part: "records" }, recordsMs / 1000);
  histogram.observe({ part: "report" }, reportMs / 1000);
}

export function countAction(kind: string, outcome: string): void {
  metrics().actions.inc({ kind, outcome });
}
