import type { RolloutResource } from "@/lib/rollouts/schema";
import { describeStep, type StepKind } from "@/lib/rollouts/steps";
import type { ActionEffectState } from "./effect";

const SHORT_LABEL: Record<StepKind, string> = {
  setWeight: "set weight",
  pause: "pause",
  analysis: "analysis",
  experiment: "experiment",
  setCanaryScale: "canary scale",
  setHeaderRoute: "header route",
  setMirrorRoute: "mirror route",
  plugin: "plugin step",
  unknown: "step",
};

/** Steps the controller completes in the same reconcile; any other step holds the Rollout. */
const INSTANT_STEPS = new Set<StepKind>(["setWeight", "setCanaryScale", "setHeaderRoute", "setMirrorRoute"]);

function toPercent(weight: number, maxTrafficWeight: number): number {
  return maxTrafficWeight > 0 ? (weight / maxTrafficWeight) * 100 : 0;
}

/**
 * What the confirmation dialog says an action will do, from the Rollout the user sees: promote moves to the next
 * step and the controller runs the instant steps after it (setWeight, setCanaryScale, header/mirror routes) until
 * one that holds (pause, analysis, experiment, plugin); the weight in force there is where the canary lands.
 * Running off the end means full promotion (100 %).
 */
export function deriveActionEffectState(
  rollout: RolloutResource,
  view: { strategy: "canary" | "blueGreen" | "none"; requestedPercent: number | null; maxTrafficWeight: number },
): ActionEffectState {
  const steps = rollout.spec?.strategy?.canary?.steps ?? [];
  const stepIndex = Math.min(rollout.status?.currentStepIndex ?? 0, steps.length);
  const requestedPercent = view.requestedPercent ?? 0;
  const labelOf = (i: number) => SHORT_LABEL[describeStep(steps[i], view.maxTrafficWeight).kind];
  const state: ActionEffectState = {
    strategy: view.strategy === "blueGreen" ? "blueGreen" : "canary",
    requestedPercent,
    stepIndex,
    totalSteps: steps.length,
    ...(rollout.status?.abort === true ? { aborted: true } : {}),
    ...(stepIndex < steps.length ? { stepLabel: labelOf(stepIndex) } : {}),
  };
  if (stepIndex >= steps.length) return state;
  let weight = requestedPercent;
  for (let i = stepIndex + 1; i < steps.length; i++) {
    const kind = describeStep(steps[i], view.maxTrafficWeight).kind;
    const setWeight = steps[i].setWeight;
    if (kind === "setWeight" && setWeight !== undefined) weight = toPercent(setWeight, view.maxTrafficWeight);
    if (!INSTANT_STEPS.has(kind)) return { ...state, nextStepWeightPercent: weight, nextStepLabel: labelOf(i) };
  }
  return { ...state, nextStepWeightPercent: 100 };
}
