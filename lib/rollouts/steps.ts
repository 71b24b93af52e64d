import { formatDurationSeconds, parseDurationSeconds } from "./duration";
import { toPercent } from "./max-traffic-weight";
import type { CanaryStep, RolloutResource } from "./schema";

export type StepKind =
  "setWeight" | "pause" | "analysis" | "experiment" | "setCanaryScale" | "setHeaderRoute" | "setMirrorRoute" | "plugin" | "unknown";

export interface StepDescription {
  kind: StepKind;
  label: string;
}

export interface StepProgress {
  /** 1-based position for display; null when there is no current step (none defined, or all done). */
  current: number | null;
  total: number;
  /** Raw 0-based `status.currentStepIndex`; null when the controller has not set it. */
  index: number | null;
  isComplete: boolean;
}

type StringMatch = { exact?: string; prefix?: string; regex?: string };

/** Human label for one canary step. Weights are shown as percent of maxTrafficWeight. */
export function describeStep(step: CanaryStep, maxTrafficWeight = 100): StepDescription {
  if (step.setWeight !== undefined) {
    const percent = toPercent(step.setWeight, maxTrafficWeight);
    const raw = maxTrafficWeight === 100 ? "" : ` (${step.setWeight}/${maxTrafficWeight})`;
    return { kind: "setWeight", label: `Set weight ${percent}%${raw}` };
  }
  if (step.pause !== undefined) {
    return { kind: "pause", label: describePause(step.pause.duration) };
  }
  if (step.analysis !== undefined) {
    const names = (step.analysis.templates ?? []).map((t) => t.templateName ?? "?");
    return { kind: "analysis", label: names.length ? `Analysis: ${names.join(", ")}` : "Analysis" };
  }
  if (step.experiment !== undefined) {
    const { templates = [], analyses = [], duration } = step.experiment;
    const parts = [`Experiment: ${templates.map((t) => `${t.name} (${t.specRef})`).join(", ") || "no templates"}`];
    if (duration) parts.push(`for ${duration}`);
    if (analyses.length) parts.push(`with analysis ${analyses.map((a) => a.templateName).join(", ")}`);
    return { kind: "experiment", label: parts.join(" ") };
  }
  if (step.setCanaryScale !== undefined) {
    const { weight, replicas, matchTrafficWeight } = step.setCanaryScale;
    const label =
      weight !== undefined
        ? `Set canary scale ${weight}%`
        : replicas !== undefined
          ? `Set canary scale ${replicas} ${replicas === 1 ? "replica" : "replicas"}`
          : matchTrafficWeight
            ? "Canary scale matches traffic weight"
            : "Set canary scale";
    return { kind: "setCanaryScale", label };
  }
  if (step.setHeaderRoute !== undefined) {
    const { name = "?", match = [] } = step.setHeaderRoute;
    // A setHeaderRoute without matches removes the managed route.
    if (match.length === 0) return { kind: "setHeaderRoute", label: `Remove header route ${name}` };
    const rules = match.map((m) => `${m.headerName} ${describeStringMatch(m.headerValue)}`);
    return { kind: "setHeaderRoute", label: `Header route ${name}: ${rules.join(", ")}` };
  }
  if (step.setMirrorRoute !== undefined) {
    const { name, match = [], percentage } = step.setMirrorRoute;
    if (match.length === 0) return { kind: "setMirrorRoute", label: `Remove mirror route ${name}` };
    const rules = match.map((m) =>
      [
        m.method ? `method ${describeStringMatch(m.method)}` : "",
        m.path ? `path ${describeStringMatch(m.path)}` : "",
        ...Object.entries(m.headers ?? {}).map(([header, value]) => `${header} ${describeStringMatch(value)}`),
      ]
        .filter(Boolean)
        .join(" and "),
    );
    return { kind: "setMirrorRoute", label: `Mirror route ${name} (${percentage ?? 100}%): ${rules.join(", ")}` };
  }
  if (step.plugin !== undefined) {
    return { kind: "plugin", label: `Plugin step ${step.plugin.name}` };
  }
  const keys = Object.keys(step);
  return { kind: "unknown", label: `Unknown step (${keys.join(", ") || "empty"})` };
}

function describePause(duration: number | string | undefined): string {
  if (duration === undefined) return "Pause (until promoted)";
  const seconds = parseDurationSeconds(duration);
  return seconds === null ? `Pause ${String(duration)} (invalid duration)` : `Pause ${formatDurationSeconds(seconds)}`;
}

function describeStringMatch(match: StringMatch): string {
  if (match.exact !== undefined) return `= ${match.exact}`;
  if (match.prefix !== undefined) return `starts with ${match.prefix}`;
  if (match.regex !== undefined) return `~ ${match.regex}`;
  return "(any)";
}

export function listCanarySteps(rollout: RolloutResource): CanaryStep[] {
  return rollout.spec?.strategy?.canary?.steps ?? [];
}

/**
 * Mirrors `utils/replicaset/canary.go` GetCurrentCanaryStep: an unset currentStepIndex counts as 0, and there is
 * no current step when the Rollout has no steps or the index has run past the last one.
 */
export function findCurrentStep(rollout: RolloutResource): { step: CanaryStep; index: number } | null {
  const steps = listCanarySteps(rollout);
  const index = rollout.status?.currentStepIndex ?? 0;
  const step = steps[index];
  return step === undefined ? null : { step, index };
}

export function deriveStepProgress(rollout: RolloutResource): StepProgress {
  const total = listCanarySteps(rollout).length;
  const index = rollout.status?.currentStepIndex ?? null;
  const isComplete = total > 0 && index !== null && index >= total;
  const current = index !== null && index < total ? index + 1 : null;
  return { current, total, index, isComplete };
}
