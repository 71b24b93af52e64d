import type { AttentionReason, RolloutView } from "./view-model";

/*
 * Attention reasons a Rollout object cannot tell by itself: they need what else its cluster shows (the plugins
 * argo-rollouts-config registers, Warning events about it) and time (how long it has made no progress). The real
 * controller shows a Rollout whose reconcile fails at 0 replicas, Progressing, with no condition at all, so none of
 * these rely on a condition.
 */

/** Default `spec.progressDeadlineSeconds`, as upstream. */
export const DEFAULT_PROGRESS_DEADLINE_SECONDS = 600;

/** From this share of the progress deadline on, a Rollout without progress is flagged as approaching it. */
const DEADLINE_APPROACHING_SHARE = 0.8;

/** Warning events older than this no longer say anything about the current reconcile. */
const WARNING_WINDOW_MS = 10 * 60_000;

/** Warning reasons already told by another reason (aborted, analysis): not repeated as a warning event. */
const COVERED_WARNINGS = new Set(["RolloutAborted", "AnalysisRunFailed", "AnalysisRunError", "AnalysisRunInconclusive", "RolloutPaused"]);

/** Warning reasons that mean the controller cannot reconcile the Rollout (every retry fails the same way). */
const RECONCILE_FAILURES = new Set(["ReconciliationError", "TrafficRoutingError", "WeightVerifyError", "InvalidSpec"]);

export interface WarningEventSignal {
  reason: string;
  message: string;
  count: number;
  /** Epoch ms of the latest occurrence. */
  lastAt: number;
}

export interface AttentionSignalsInput {
  view: Pick<RolloutView, "namespace" | "name" | "phase" | "pause" | "aborted" | "trafficRouters" | "pluginSteps">;
  cluster: string;
  /** Plugin names argo-rollouts-config registers, per kind; null while the ConfigMap has not been listed yet. */
  registered: { trafficRouter: ReadonlySet<string>; step: ReadonlySet<string> } | null;
  warnings: readonly WarningEventSignal[];
  /** Epoch ms when the Rollout last made progress (its state changed), as far as anyone can tell. */
  lastProgressAt: number;
  progressDeadlineSeconds: number;
  /** Whether the Progressing condition already says ProgressDeadlineExceeded (the view then reports it). */
  deadlineConditionSet: boolean;
  noProgressMinutes: number;
  now: number;
}

/** Where a reason's finding is: the plugins page entry, or the detail page section that shows it. */
export function detailSectionHref(cluster: string, namespace: string, name: string, section: string): string {
  return `/rollouts/${encodeURIComponent(cluster)}/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}#${section}`;
}

/** The plugins page anchor of the finding `referenced-not-registered` (lib/plugins/findings.ts) for one plugin. */
function unregisteredPluginHref(cluster: string, kind: "trafficRouter" | "step", plugin: string): string {
  // Cluster and plugin names hold only characters a fragment may carry as they are (letters, digits, - _ . /).
  return `/plugins#referenced-not-registered/${cluster}/${kind}/${plugin}`;
}

export function deriveAttentionSignals(input: AttentionSignalsInput): AttentionReason[] {
  return [...unregisteredPlugins(input), ...warningEvents(input), ...stalledProgress(input)];
}

function unregisteredPlugins({ view, cluster, registered }: AttentionSignalsInput): AttentionReason[] {
  if (!registered) return [];
  const routers = view.trafficRouters.filter((r) => r.kind === "plugin" && !registered.trafficRouter.has(r.name)).map((r) => r.name);
  const steps = view.pluginSteps.filter((name) => !registered.step.has(name));
  return [
    ...routers.map((name) => ({
      code: "PluginNotRegistered" as const,
      message: `Traffic-router plugin ${name} is not registered in ${cluster}'s argo-rollouts-config: every reconcile fails`,
      href: unregisteredPluginHref(cluster, "trafficRouter", name),
    })),
    ...steps.map((name) => ({
      code: "PluginNotRegistered" as const,
      message: `Step plugin ${name} is not registered in ${cluster}'s argo-rollouts-config: its step cannot run`,
      href: unregisteredPluginHref(cluster, "step", name),
    })),
  ];
}

function warningEvents({ view, cluster, warnings, now }: AttentionSignalsInput): AttentionReason[] {
  if (view.phase === "Healthy") return [];
  const recent = warnings
    .filter((w) => now - w.lastAt <= WARNING_WINDOW_MS && !COVERED_WARNINGS.has(w.reason))
    .sort((a, b) => b.lastAt - a.lastAt);
  const href = detailSectionHref(cluster, view.namespace ?? "", view.name, "events-title");
  const failing = recent.find((w) => RECONCILE_FAILURES.has(w.reason));
  const other = recent.find((w) => !RECONCILE_FAILURES.has(w.reason));
  const reasons: AttentionReason[] = [];
  if (failing) reasons.push({ code: "ReconcileFailing", message: describeWarning(failing), href });
  if (other) reasons.push({ code: "WarningEvent", message: describeWarning(other), href });
  return reasons;
}

function describeWarning(w: WarningEventSignal): string {
  return `${w.reason}${w.count > 1 ? ` (×${w.count})` : ""}: ${w.message}`;
}

/** No progress for the configured time, and the progress deadline approaching or passed, while nobody paused it. */
function stalledProgress(input: AttentionSignalsInput): AttentionReason[] {
  const { view, cluster, lastProgressAt, progressDeadlineSeconds, noProgressMinutes, now } = input;
  if (view.phase !== "Progressing" || view.pause || view.aborted) return [];
  const stalledMs = Math.max(0, now - lastProgressAt);
  const href = detailSectionHref(cluster, view.namespace ?? "", view.name, "steps-title");
  const reasons: AttentionReason[] = [];
  const deadlineMs = progressDeadlineSeconds * 1000;
  if (stalledMs >= deadlineMs) {
    if (!input.deadlineConditionSet) {
      reasons.push({
        code: "ProgressDeadlineExceeded",
        message: `No progress for ${formatMinutes(stalledMs)}, past its ${formatMinutes(deadlineMs)} progress deadline (the controller has not marked it)`,
        href,
      });
    }
  } else if (stalledMs >= deadlineMs * DEADLINE_APPROACHING_SHARE) {
    reasons.push({
      code: "ProgressDeadlineApproaching",
      message: `No progress for ${formatMinutes(stalledMs)}; its ${formatMinutes(deadlineMs)} progress deadline is close`,
      href,
    });
  }
  if (stalledMs >= noProgressMinutes * 60_000 && reasons.length === 0 && !input.deadlineConditionSet) {
    reasons.push({ code: "NoProgress", message: `Progressing, but nothing has changed for ${formatMinutes(stalledMs)}`, href });
  }
  return reasons;
}

function formatMinutes(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.floor(ms / 1000)}s`;
  if (minutes < 120) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}

/**
 * What "progress" is: any change of phase, step, replica counts, weights or pod template. A Rollout whose every
 * reconcile fails keeps this constant even while its object (and resourceVersion) may change.
 */
export function progressSignature(
  view: Pick<RolloutView, "phase" | "stepProgress" | "replicas" | "appliedWeights" | "currentPodHash" | "pause" | "aborted">,
): string {
  const { replicas: r } = view;
  return [
    view.phase,
    view.stepProgress.index,
    r.current,
    r.updated,
    r.ready,
    r.available,
    view.appliedWeights?.canaryPercent ?? "",
    view.currentPodHash ?? "",
    view.pause ? 1 : 0,
    view.aborted ? 1 : 0,
  ].join("|");
}

/** `spec.progressDeadlineSeconds` of a raw Rollout object, upstream's default when absent or invalid. */
export function readProgressDeadlineSeconds(obj: unknown): number {
  const value = (obj as { spec?: { progressDeadlineSeconds?: unknown } } | null)?.spec?.progressDeadlineSeconds;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : DEFAULT_PROGRESS_DEADLINE_SECONDS;
}
