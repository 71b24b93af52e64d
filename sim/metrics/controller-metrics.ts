import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { providerType } from "../controller/analysis-runner";
import { calculateMetricsPhase, type MetricsPhase } from "../controller/conditions";
import { metricsTrafficRouter } from "../controller/traffic-routers";
import type { AnalysisRun, Rollout } from "../controller/types";

const CONTROLLER_VERSION = "v1.9.1+sim";
/** `controller/metrics/prommetrics.go`: reconcile histogram buckets. */
const RECONCILE_BUCKETS = [0.01, 0.15, 0.25, 0.5, 1];
const ROLLOUT_PHASES: MetricsPhase[] = ["Completed", "Progressing", "Paused", "Timeout", "Error", "Abort"];
const ANALYSIS_PHASES = ["Pending", "Running", "Successful", "Failed", "Error", "Inconclusive"];

export interface MetricsSnapshot {
  rollouts(): Rollout[];
  analysisRuns(): AnalysisRun[];
  experiments(): Array<{ namespace: string; name: string; phase: string }>;
  /** Namespaced AnalysisTemplates (analysis_template_info); none when absent. */
  analysisTemplates?(): Array<{ namespace: string; name: string; metrics: Array<{ name: string; provider?: Record<string, unknown> }> }>;
}

function strategyOf(ro: Rollout): string {
  if (ro.spec.strategy.blueGreen) return "blueGreen";
  if (ro.spec.strategy.canary) return "canary";
  return "none";
}

interface GaugeSample {
  labels: Record<string, string>;
  value: number;
}

/**
 * A gauge family whose samples are computed at scrape time, registered as prom-client reads metrics (`get()`);
 * `collect` runs first and may fill other families too (they are read after it, in registration order).
 */
class CollectedGauge {
  readonly type = "gauge";
  readonly aggregator = "sum";
  values: GaugeSample[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
    private readonly collect?: () => void,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  get() {
    this.collect?.();
    return { name: this.name, help: this.help, type: this.type, values: this.values, aggregator: this.aggregator };
  }
}

interface RolloutSamples {
  info: GaugeSample;
  available: GaugeSample;
  unavailable: GaugeSample;
  desired: GaugeSample;
  updated: GaugeSample;
  phases: GaugeSample[];
}

function rolloutSamples(ro: Rollout): RolloutSamples {
  const namespace = ro.metadata.namespace ?? "";
  const name = ro.metadata.name;
  const strategy = strategyOf(ro);
  const calculated = calculateMetricsPhase(ro.status);
  const status = ro.status ?? {};
  const series = { namespace, name };
  return {
    info: { labels: { namespace, name, strategy, traffic_router: metricsTrafficRouter(ro), phase: calculated }, value: 1 },
    available: { labels: series, value: status.availableReplicas ?? 0 },
    unavailable: { labels: series, value: (status.replicas ?? 0) - (status.availableReplicas ?? 0) },
    desired: { labels: series, value: ro.spec.replicas ?? 1 },
    updated: { labels: series, value: status.updatedReplicas ?? 0 },
    phases: ROLLOUT_PHASES.map((p) => ({ labels: { namespace, name, strategy, phase: p }, value: calculated === p ? 1 : 0 })),
  };
}

/**
 * Each Rollout's samples, worked out again only for a Rollout stored anew since the last scrape (a stored Rollout is
 * frozen and replaced on every write; most do not change between two scrapes).
 */
class RolloutSampleCache {
  private last = new Map<string, { ro: Rollout; samples: RolloutSamples }>();

  /** Samples of these Rollouts; forgets the ones not asked for (deleted Rollouts). */
  samplesOf(rollouts: Rollout[]): RolloutSamples[] {
    const next = new Map<string, { ro: Rollout; samples: RolloutSamples }>();
    const out = rollouts.map((ro) => {
      const key = `${ro.metadata.namespace ?? ""}/${ro.metadata.name}`;
      const known = this.last.get(key);
      const entry = known && known.ro === ro && Object.isFrozen(ro) ? known : { ro, samples: rolloutSamples(ro) };
      next.set(key, entry);
      return entry.samples;
    });
    this.last = next;
    return out;
  }
}

/**
 * The controller's /metrics, one Registry per simulated cluster (never prom-client's global registry), with the
 * upstream names, types and labels of `controller/metrics/*.go` (reference §4.2). Info gauges are computed at
 * scrape time from the controller's caches, as upstream's collectors are.
 */
export class ControllerMetrics {
  readonly registry = new Registry();
  private readonly reconcile: Histogram<string>;
  private readonly reconcileError: Counter<string>;
  private readonly events: Counter<string>;
  private readonly k8sRequests: Counter<string>;
  private readonly analysisReconcile: Histogram<string>;
  private readonly analysisReconcileError: Counter<string>;
  private readonly notificationSend: Histogram<string>;
  /** Label sets per rollout, so a deleted rollout's series can be dropped (upstream: after 65 s). */
  private readonly eventLabels = new Map<string, Set<string>>();

  constructor(snapshot: MetricsSnapshot) {
    const registers = [this.registry];
    this.reconcile = new Histogram({
      name: "rollout_reconcile",
      help: "Rollout reconciliation performance.",
      labelNames: ["namespace", "name"],
      buckets: RECONCILE_BUCKETS,
      registers,
    });
    this.reconcileError = new Counter({
      name: "rollout_reconcile_error",
      help: "Error occurring during the rollout",
      labelNames: ["namespace", "name"],
      registers,
    });
    this.events = new Counter({
      name: "rollout_events_total",
      help: "Count of rollout events",
      labelNames: ["namespace", "name", "type", "reason"],
      registers,
    });
    this.k8sRequests = new Counter({
      name: "controller_clientset_k8s_request_total",
      help: "Number of kubernetes requests executed during application reconciliation.",
      labelNames: ["kind", "namespace", "name", "verb", "status_code"],
      registers,
    });
    this.analysisReconcile = new Histogram({
      name: "analysis_run_reconcile",
      help: "Analysis Run reconciliation performance.",
      labelNames: ["namespace", "name"],
      buckets: RECONCILE_BUCKETS,
      registers,
    });
    this.analysisReconcileError = new Counter({
      name: "analysis_run_reconcile_error",
      help: "Error occurring during the analysis run",
      labelNames: ["namespace", "name"],
      registers,
    });
    // Observed for every event, as upstream's recorder runs its notification triggers (none configured here) per event.
    this.notificationSend = new Histogram({
      name: "notification_send",
      help: "Notification send performance.",
      labelNames: ["namespace", "name"],
      buckets: [0.01, 0.15, 0.25, 0.5, 1],
      registers,
    });
    new Gauge({ name: "argo_rollouts_controller_info", help: "Running Argo-rollouts version", labelNames: ["version"], registers }).set(
      { version: CONTROLLER_VERSION },
      1,
    );
    new Gauge({
      name: "build_info",
      help: "A metric with a constant '1' value labeled by version from which Argo-Rollouts was built.",
      labelNames: ["version", "goversion", "goarch", "commit"],
      registers,
    }).set({ version: CONTROLLER_VERSION, goversion: "go1.24.6", goarch: "amd64", commit: "0000000000000000000000000000000000000000" }, 1);
    this.registerRolloutCollectors(snapshot, registers);
    this.registerAnalysisCollectors(snapshot, registers);
  }

  /**
   * rollout_info and its companions, filled in one pass over the controller's cache when the first family of the
   * group is read (upstream's collector does the same). Plain sample lists rather than prom-client Gauges: setting
   * 2,750 labelled gauge values per scrape of a 250-Rollout cluster was half of the simulator's scrape cost.
   */
  private registerRolloutCollectors(snapshot: MetricsSnapshot, registers: Registry[]): void {
    const family = (name: string, help: string, collect?: () => void) => new CollectedGauge(name, help, registers[0], collect);
    const cache = new RolloutSampleCache();
    const info = family("rollout_info", "Information about rollout.", () => {
      for (const f of all) f.values = [];
      for (const samples of cache.samplesOf(snapshot.rollouts())) {
        info.values.push(samples.info);
        available.values.push(samples.available);
        unavailable.values.push(samples.unavailable);
        desired.values.push(samples.desired);
        updated.values.push(samples.updated);
        for (const p of samples.phases) phase.values.push(p);
      }
    });
    const available = family("rollout_info_replicas_available", "The number of available replicas per rollout.");
    const unavailable = family("rollout_info_replicas_unavailable", "The number of unavailable replicas per rollout.");
    const desired = family("rollout_info_replicas_desired", "The number of desired replicas per rollout.");
    const updated = family("rollout_info_replicas_updated", "The number of updated replicas per rollout.");
    const phase = family("rollout_phase", "Information on the state of the rollout (DEPRECATED - use rollout_info)");
    const all = [info, available, unavailable, desired, updated, phase];
  }

  private registerAnalysisCollectors(snapshot: MetricsSnapshot, registers: Registry[]): void {
    const gauges: Array<Gauge<string>> = [];
    const info = new Gauge({
      name: "analysis_run_info",
      help: "Information about analysis run.",
      labelNames: ["namespace", "name", "phase"],
      registers,
      collect() {
        for (const g of gauges) g.reset();
        for (const ar of snapshot.analysisRuns()) {
          const ns = ar.metadata.namespace ?? "";
          const name = ar.metadata.name;
          const current = ar.status?.phase ?? "Pending";
          info.set({ namespace: ns, name, phase: current }, 1);
          for (const p of ANALYSIS_PHASES) runPhase.set({ namespace: ns, name, phase: p }, p === current ? 1 : 0);
          for (const metric of ar.spec.metrics ?? []) {
            const type = providerType(metric);
            metricType.set({ namespace: ns, name, metric: metric.name, type }, 1);
            const result = ar.status?.metricResults?.find((r) => r.name === metric.name);
            const mp = result?.phase ?? "Pending";
            for (const p of ANALYSIS_PHASES)
              metricPhase.set({ namespace: ns, name, metric: metric.name, type, dry_run: "false", phase: p }, p === mp ? 1 : 0);
          }
        }
        for (const ex of snapshot.experiments()) experimentInfo.set({ namespace: ex.namespace, name: ex.name, phase: ex.phase }, 1);
        for (const t of snapshot.analysisTemplates?.() ?? []) {
          templateInfo.set({ namespace: t.namespace, name: t.name }, 1);
          for (const metric of t.metrics)
            templateMetricInfo.set({ namespace: t.namespace, name: t.name, type: providerType(metric), metric: metric.name }, 1);
        }
      },
    });
    const runPhase = new Gauge({
      name: "analysis_run_phase",
      help: "Information on the state of the Analysis Run (DEPRECATED - use analysis_run_info)",
      labelNames: ["namespace", "name", "phase"],
      registers,
    });
    const metricType = new Gauge({
      name: "analysis_run_metric_type",
      help: "Information on the type of a specific metric in the Analysis Runs.",
      labelNames: ["namespace", "name", "metric", "type"],
      registers,
    });
    const metricPhase = new Gauge({
      name: "analysis_run_metric_phase",
      help: "Information on the duration of a specific metric in the Analysis Run",
      labelNames: ["namespace", "name", "metric", "type", "dry_run", "phase"],
      registers,
    });
    const experimentInfo = new Gauge({
      name: "experiment_info",
      help: "Information about Experiment.",
      labelNames: ["namespace", "name", "phase"],
      registers,
    });
    const templateInfo = new Gauge({
      name: "analysis_template_info",
      help: "Information about analysis templates.",
      labelNames: ["namespace", "name"],
      registers,
    });
    const templateMetricInfo = new Gauge({
      name: "analysis_template_metric_info",
      help: "Information on metrics in analysis templates.",
      labelNames: ["namespace", "name", "type", "metric"],
      registers,
    });
    gauges.push(info, runPhase, metricType, metricPhase, experimentInfo, templateInfo, templateMetricInfo);
  }

  observeReconcile(namespace: string, name: string, seconds: number): void {
    this.reconcile.observe({ namespace, name }, seconds);
  }

  incReconcileError(namespace: string, name: string): void {
    this.reconcileError.inc({ namespace, name });
  }

  /** rollout_events_total: every recorded event, before the EventCorrelator dedups or drops it. */
  incEvent(namespace: string, name: string, type: string, reason: string): void {
    this.events.inc({ namespace, name, type, reason });
    this.notificationSend.observe({ namespace, name }, 0.0001);
    const id = `${namespace}/${name}`;
    let set = this.eventLabels.get(id);
    if (!set) this.eventLabels.set(id, (set = new Set()));
    set.add(`${type}\u0000${reason}`);
  }

  incK8sRequest(kind: string, namespace: string, name: string, verb: string, statusCode: string): void {
    this.k8sRequests.inc({ kind, namespace, name, verb, status_code: statusCode });
  }

  observeAnalysisReconcile(namespace: string, name: string, seconds: number): void {
    this.analysisReconcile.observe({ namespace, name }, seconds);
  }

  incAnalysisReconcileError(namespace: string, name: string): void {
    this.analysisReconcileError.inc({ namespace, name });
  }

  /** Drops a deleted rollout's counters and histograms (upstream does this 65 s after the delete). */
  forgetRollout(namespace: string, name: string): void {
    this.reconcile.remove({ namespace, name });
    this.reconcileError.remove({ namespace, name });
    this.notificationSend.remove({ namespace, name });
    for (const combo of this.eventLabels.get(`${namespace}/${name}`) ?? []) {
      const [type, reason] = combo.split("\u0000");
      this.events.remove({ namespace, name, type, reason });
    }
    this.eventLabels.delete(`${namespace}/${name}`);
  }

  /** The current value of rollout_events_total for one label set (tests and the demo's own bookkeeping). */
  async eventCount(filter: Partial<Record<"namespace" | "name" | "type" | "reason", string>>): Promise<number> {
    const data = await this.events.get();
    return data.values.filter((v) => Object.entries(filter).every(([k, want]) => v.labels[k] === want)).reduce((n, v) => n + v.value, 0);
  }

  async reconcileErrorCount(namespace: string, name: string): Promise<number> {
    const data = await this.reconcileError.get();
    return data.values.filter((v) => v.labels.namespace === namespace && v.labels.name === name).reduce((n, v) => n + v.value, 0);
  }
}
