import "server-only";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";

/**
 * Rollscope's own metrics (not the Rollouts' traffic metrics it shows): one registry per process, on globalThis
 * because Next loads instrumentation and route handlers as separate module instances. Labels are bounded sets —
 * route patterns, cluster names, watched kinds, action names, outcomes — never a path, a user or a credential.
 */
export interface RollscopeMetrics {
  readonly registry: Registry;
  readonly httpRequestDuration: Histogram<"method" | "route" | "status">;
  readonly sseClients: Gauge;
  readonly watchState: Gauge<"cluster" | "kind" | "state">;
  readonly watchRelists: Counter<"cluster" | "kind">;
  readonly watchEvents: Counter<"cluster" | "kind">;
  readonly recorderQueueLag: Gauge;
  readonly recorderPendingRows: Gauge<"table">;
  readonly recorderWriteDuration: Histogram<"outcome">;
  readonly prometheusQueryDuration: Histogram<"outcome">;
  readonly prometheusQueryErrors: Counter<"reason">;
  readonly prometheusRangeReads: Counter<"read">;
  readonly pluginHealthCompute: Histogram<"part">;
  readonly actions: Counter<"kind" | "outcome">;
}

/** What the history recorder has queued, read when the metrics are scraped. */
export interface RecorderQueue {
  samples: number;
  events: number;
  /** When the oldest unwritten row was queued (ms since the epoch); null when nothing waits. */
  oldestQueuedAt: number | null;
}

let recorderQueueSource: (() => RecorderQueue) | null = null;

/** The recorder whose queue the recorder gauges report (the process has one). */
export function reportRecorderQueue(source: () => RecorderQueue): void {
  recorderQueueSource = source;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics(): RollscopeMetrics {
  const registry = new Registry();
  const registers = [registry];
  // GC pauses in finer buckets than prom-client's (1 ms, 10 ms, 100 ms…): a pause of 50 ms or more is a stall of every
  // live stream, and what the benchmark looks for.
  collectDefaultMetrics({ register: registry, gcDurationBuckets: [0.001, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5] });
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: "rollscope_http_request_duration_seconds",
      help: "Time to the end of each HTTP response (an event stream: until it closes), by route pattern and status.",
      labelNames: ["method", "route", "status"],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    sseClients: new Gauge({ name: "rollscope_sse_clients", help: "Live event streams (/api/stream) open now.", registers }),
    watchState: new Gauge({
      name: "rollscope_watch_state",
      help: "1 for the state each watch (cluster, kind) is in now, 0 for the others.",
      labelNames: ["cluster", "kind", "state"],
      registers,
    }),
    watchRelists: new Counter({
      name: "rollscope_watch_relists_total",
      help: "Full lists after a watch's first one (after an expired resourceVersion or a reconnect).",
      labelNames: ["cluster", "kind"],
      registers,
    }),
    watchEvents: new Counter({
      name: "rollscope_watch_events_total",
      help: "Objects each watch delivered: the items of its lists, then every addition, change and deletion.",
      labelNames: ["cluster", "kind"],
      registers,
    }),
    recorderQueueLag: new Gauge({
      name: "rollscope_recorder_queue_lag_seconds",
      help: "Age of the oldest state or event the history recorder has not written yet (0 when none waits).",
      registers,
      collect() {
        const queue = recorderQueueSource?.();
        this.set(queue?.oldestQueuedAt == null ? 0 : Math.max(0, (Date.now() - queue.oldestQueuedAt) / 1000));
      },
    }),
    recorderPendingRows: new Gauge({
      name: "rollscope_recorder_pending_rows",
      help: "Rows waiting to be written by the history recorder, by table (samples, events).",
      labelNames: ["table"],
      registers,
      collect() {
        const queue = recorderQueueSource?.();
        this.set({ table: "samples" }, queue?.samples ?? 0);
        this.set({ table: "events" }, queue?.events ?? 0);
      },
    }),
    recorderWriteDuration: new Histogram({
      name: "rollscope_recorder_write_duration_seconds",
      help: "Duration of each history write transaction, by outcome (ok, error).",
      labelNames: ["outcome"],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    prometheusQueryDuration: new Histogram({
      name: "rollscope_prometheus_query_duration_seconds",
      help: "Duration of each query to a configured Prometheus, by outcome (ok, error).",
      labelNames: ["outcome"],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    prometheusRangeReads: new Counter({
      name: "rollscope_prometheus_range_reads_total",
      help: "Range reads of the plugin health's grouped queries, by what was asked of Prometheus: the whole range (full), only the steps not yet settled (tail), nothing (none).",
      labelNames: ["read"],
      registers,
    }),
    pluginHealthCompute: new Histogram({
      name: "rollscope_plugin_health_compute_seconds",
      help: "Duration of each plugin health report's computation, by part: metrics (every cluster's queries), records (the stored events and samples), report (the whole).",
      labelNames: ["part"],
      buckets: SECONDS_BUCKETS,
      registers,
    }),
    prometheusQueryErrors: new Counter({
      name: "rollscope_prometheus_query_errors_total",
      help: "Failed Prometheus queries, by reason (unreachable, timeout, unauthorized, bad_query, upstream_error).",
      labelNames: ["reason"],
      registers,
    }),
    actions: new Counter({
      name: "rollscope_actions_total",
      help: "Rollout actions attempted, by action (promote, abort, …) and audited outcome (done, denied, stale, conflict, error, not_sent).",
      labelNames: ["kind", "outcome"],
      registers,
    }),
  };
}

const globalForMetrics = globalThis as unknown as { rollscopeMetrics?: RollscopeMetrics };

/** The process's metrics. */
export function metrics(): RollscopeMetrics {
  globalForMetrics.rollscopeMetrics ??= createMetrics();
  return globalForMetrics.rollscopeMetrics;
}

/** Seconds since `startedAt` (a `performance.now()` reading). */
export function secondsSince(startedAt: number): number {
  return (performance.now() - startedAt) / 1000;
}
