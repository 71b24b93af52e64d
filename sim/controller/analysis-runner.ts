import { SIM_ANALYSIS_OUTCOME, SIM_ANALYSIS_SECONDS } from "./context";
import { durationSeconds } from "./duration";
import type { K8sClient } from "./k8s-client";
import type { Prng } from "./prng";
import { T } from "./resource-types";
import type { SimClock } from "./sim-clock";
import type { AnalysisPhase, AnalysisRun, MetricResult } from "./types";

export type MeasurementOutcome = "Successful" | "Failed" | "Inconclusive";

const DEFAULT_INTERVAL_SECONDS = 10;
/** Background runs without a count keep measuring; their measurements are capped like measurementRetention. */
const MAX_KEPT_MEASUREMENTS = 10;

export function providerType(metric: { provider?: Record<string, unknown> }): string {
  const key = Object.keys(metric.provider ?? {})[0] ?? "job";
  return key === "newRelic" ? "NewRelic" : key.charAt(0).toUpperCase() + key.slice(1);
}

function outcomeOf(ar: AnalysisRun): MeasurementOutcome {
  const value = ar.metadata.annotations?.[SIM_ANALYSIS_OUTCOME];
  return value === "Failed" || value === "Inconclusive" ? value : "Successful";
}

/**
 * The AnalysisRun controller, simulated: takes one measurement per metric interval and ends the run as the
 * `sim.rollscope.dev/analysis-outcome` annotation says (copied from the Rollout or its template). A Failed or
 * Inconclusive outcome shows up in the last measurement (the 3rd for background runs without a count).
 */
export class AnalysisRunner {
  constructor(
    private readonly client: K8sClient,
    private readonly clock: SimClock,
    private readonly prng: Prng,
    private readonly precise: Map<string, number>,
    private readonly observe: (ar: AnalysisRun, seconds: number) => void,
  ) {}

  /** Advances one run; returns epoch ms of its next measurement, or null when it is done. */
  reconcile(arKey: string): number | null {
    const started = performance.now();
    const [ns, name] = arKey.split("/");
    const found = this.client.store.tryGet(T.analysisRuns, ns, name) as AnalysisRun | undefined;
    // A new run (no phase yet) starts now and takes its first measurement in the same pass, as upstream's does.
    const ar = found && !found.status?.phase && !found.spec.terminate ? this.start(found) : found;
    if (!ar?.status || ar.status.phase !== "Running") return null;
    const startedAt =
      this.precise.get(`${ar.metadata.uid}/started`) ?? Date.parse(ar.status.startedAt ?? ar.metadata.creationTimestamp ?? "");
    const background = ar.metadata.labels?.["rollout-type"] === "Background";
    const outcome = outcomeOf(ar);
    const overrideSeconds = Number(ar.metadata.annotations?.[SIM_ANALYSIS_SECONDS]);
    const results: MetricResult[] = structuredClone(ar.status.metricResults ?? []);
    const elapsed = this.clock.simSecondsSince(startedAt);
    let next: number | null = null;
    let changed = false;
    for (const metric of ar.spec.metrics.length ? ar.spec.metrics : [{ name: "success-rate", provider: { prometheus: {} } }]) {
      let result = results.find((r) => r.name === metric.name);
      if (!result) {
        result = { name: metric.name, phase: "Running", measurements: [], count: 0, successful: 0, failed: 0, inconclusive: 0, error: 0 };
        results.push(result);
        changed = true;
      }
      if (result.phase !== "Running" || ar.spec.terminate) continue;
      const total = typeof metric.count === "number" ? metric.count : background && metric.interval ? Infinity : 1;
      const interval =
        Number.isFinite(overrideSeconds) && overrideSeconds > 0
          ? overrideSeconds / (Number.isFinite(total) ? total : 3)
          : (durationSeconds(metric.interval as string | undefined) ?? DEFAULT_INTERVAL_SECONDS);
      // Measurements at 0, interval, 2·interval…; a bad outcome makes every measurement bad, so the run ends once
      // failureLimit (inconclusiveLimit) is passed, as a metric provider that keeps answering badly would.
      while (result.count < total && elapsed >= result.count * interval) {
        const phase: AnalysisPhase = outcome;
        const at = this.clock.iso(startedAt + this.clock.realMs(result.count * interval));
        const value =
          phase === "Successful"
            ? 0.985 + this.prng.next() * 0.014
            : phase === "Failed"
              ? 0.7 + this.prng.next() * 0.1
              : 0.93 + this.prng.next() * 0.02;
        result.measurements.push({ phase, value: `[${value.toFixed(4)}]`, startedAt: at, finishedAt: at });
        if (result.measurements.length > MAX_KEPT_MEASUREMENTS)
          result.measurements.splice(0, result.measurements.length - MAX_KEPT_MEASUREMENTS);
        result.count++;
        if (phase === "Successful") result.successful++;
        else if (phase === "Failed") result.failed++;
        else result.inconclusive++;
        changed = true;
        const failureLimit = Number(metric.failureLimit ?? 0);
        const inconclusiveLimit = Number(metric.inconclusiveLimit ?? 0);
        if (result.failed > failureLimit) {
          result.phase = "Failed";
          result.message = `Metric "${metric.name}" assessed Failed due to failed (${result.failed}) > failureLimit (${failureLimit})`;
        } else if (result.inconclusive > inconclusiveLimit) {
          result.phase = "Inconclusive";
          result.message = `Metric "${metric.name}" assessed Inconclusive due to inconclusive (${result.inconclusive}) > inconclusiveLimit (${inconclusiveLimit})`;
        } else if (result.count >= total) result.phase = "Successful";
        if (result.phase !== "Running") break;
      }
      if (result.phase === "Running") {
        const dueMs = startedAt + this.clock.realMs(result.count * interval);
        next = next === null ? dueMs : Math.min(next, dueMs);
      }
    }
    let phase: AnalysisPhase = "Running";
    let message: string | undefined;
    const failed = results.find((r) => r.phase === "Failed");
    const inconclusive = results.find((r) => r.phase === "Inconclusive");
    if (failed) [phase, message] = ["Failed", failed.message];
    else if (inconclusive) [phase, message] = ["Inconclusive", inconclusive.message];
    else if (results.every((r) => r.phase === "Successful")) phase = "Successful";
    if (phase === "Running" && ar.spec.terminate) {
      phase = "Successful";
      message = "Run Terminated";
      for (const r of results) if (r.phase === "Running") r.phase = "Successful";
      changed = true;
      next = null;
    }
    if (phase !== "Running" || changed) {
      const summary = { count: results.length, successful: 0, failed: 0, inconclusive: 0, error: 0 };
      for (const r of results) {
        if (r.phase === "Successful") summary.successful++;
        else if (r.phase === "Failed") summary.failed++;
        else if (r.phase === "Inconclusive") summary.inconclusive++;
        else if (r.phase === "Error") summary.error++;
      }
      this.client.update(
        T.analysisRuns,
        ns,
        name,
        (draft) => {
          const status = (draft.status ?? {}) as NonNullable<AnalysisRun["status"]>;
          status.phase = phase;
          status.metricResults = results;
          status.runSummary = summary;
          if (message) status.message = message;
          if (phase !== "Running") status.completedAt = this.clock.iso();
          draft.status = status;
        },
        { subresource: "status" },
      );
    }
    this.observe(ar, (performance.now() - started) / 1000);
    return phase === "Running" ? next : null;
  }

  /** The analysis controller picking a new run up: Running from now. */
  private start(ar: AnalysisRun): AnalysisRun {
    const running = this.client.update(
      T.analysisRuns,
      ar.metadata.namespace,
      ar.metadata.name,
      (draft) => {
        draft.status = { phase: "Running", startedAt: this.clock.iso(), metricResults: [] };
      },
      { subresource: "status" },
    ) as AnalysisRun;
    this.precise.set(`${running.metadata.uid}/started`, this.clock.now());
    return running;
  }
}
