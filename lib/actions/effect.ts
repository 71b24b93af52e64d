import { formatStepPosition } from "@/lib/rollouts/step-position";
import type { RolloutAction } from "./schema";

/** What the confirmation dialog knows, already normalised to percent (weight / maxTrafficWeight × 100). */
export interface ActionEffectState {
  readonly strategy?: "canary" | "blueGreen";
  /** The weight the controller currently asks for (setWeight). */
  readonly requestedPercent: number;
  /** The weight promote would move to, when the next weight-changing step is known. */
  readonly nextStepWeightPercent?: number;
  /** `status.currentStepIndex`, zero-based; equals `totalSteps` once all steps are done. */
  readonly stepIndex: number;
  readonly totalSteps: number;
  /** Short label of the current step, e.g. "pause", "analysis". */
  readonly stepLabel?: string;
  readonly nextStepLabel?: string;
  /** `status.abort`: the update was aborted and traffic went back to stable. */
  readonly aborted?: boolean;
}

function formatPercent(value: number): string {
  return `${Math.round(value * 10) / 10} %`;
}

function formatSteps(count: number): string {
  return count === 1 ? "1 step" : `${count} steps`;
}

function describePromote(state: ActionEffectState): string {
  const { requestedPercent, nextStepWeightPercent, stepIndex, totalSteps, stepLabel, nextStepLabel } = state;
  if (state.strategy === "blueGreen") return "Promote: the preview ReplicaSet becomes active";
  if (stepIndex >= totalSteps) return `Canary stays at ${formatPercent(requestedPercent)} (all steps are complete)`;
  const weight =
    nextStepWeightPercent !== undefined && nextStepWeightPercent !== requestedPercent
      ? `Canary ${formatPercent(requestedPercent)} → ${formatPercent(nextStepWeightPercent)}`
      : `Canary stays at ${formatPercent(requestedPercent)}`;
  const position = formatStepPosition({ index: stepIndex, total: totalSteps });
  const step = stepLabel ? `skips ${stepLabel} at ${position}` : `leaves ${position}`;
  return `${weight} (${step}${nextStepLabel ? `; next: ${nextStepLabel}` : ""})`;
}

function describePromoteFull(state: ActionEffectState): string {
  if (state.aborted) {
    return state.strategy === "blueGreen"
      ? "Promote full: clears the abort and makes the aborted revision active now (as kubectl argo rollouts promote --full)"
      : "Promote full: clears the abort and sends 100 % of traffic to the aborted revision now, skipping its steps (as kubectl argo rollouts promote --full)";
  }
  if (state.strategy === "blueGreen") {
    return "Promote full: the preview ReplicaSet becomes active now, skipping pauses and analysis";
  }
  const remaining = Math.max(0, state.totalSteps - state.stepIndex);
  const head = `Promote full: canary ${formatPercent(state.requestedPercent)} → 100 %`;
  return remaining > 0 ? `${head}, skipping the remaining ${formatSteps(remaining)}` : head;
}

/**
 * One line for the confirmation dialog, e.g. "Canary 30 % → 60 % (skips pause at step 6 of 8)". Plain inputs
 * keep it UI-independent; the wording follows what the controller does after the patch (`rollout/canary.go`,
 * `rollout/bluegreen.go`): abort scales the canary to 0 and marks the Rollout Degraded, retry restarts at step 1.
 */
export function describeActionEffect(action: RolloutAction, state: ActionEffectState): string {
  const blueGreen = state.strategy === "blueGreen";
  const weight = formatPercent(state.requestedPercent);
  switch (action) {
    case "promote":
      return describePromote(state);
    case "promote-full":
      return describePromoteFull(state);
    case "abort":
      return blueGreen
        ? "Abort: traffic stays on the stable ReplicaSet and the preview scales down; the Rollout becomes Degraded"
        : `Abort: canary ${weight} → 0 %; the Rollout becomes Degraded`;
    case "retry":
      return !blueGreen && state.totalSteps > 0
        ? `Retry: clears the abort and restarts the update from step 1 of ${state.totalSteps}`
        : "Retry: clears the abort and restarts the update";
    case "pause":
      return blueGreen
        ? "Pause: the update holds until it is resumed or promoted"
        : `Pause: canary stays at ${weight} until the Rollout is resumed or promoted`;
    case "resume": {
      if (blueGreen || state.stepIndex >= state.totalSteps) {
        return "Resume: clears the manual pause; the update continues";
      }
      const step = formatStepPosition({ index: state.stepIndex, total: state.totalSteps });
      return `Resume: clears the manual pause; ${step} continues at canary ${weight}`;
    }
    case "restart":
      return "Restart: pods are recreated ReplicaSet by ReplicaSet; traffic weights do not change";
    case "undo":
      return "Undo: the pod template goes back to the chosen revision's (default: the previous one); the controller rolls it out as a new revision";
    case "set-image":
      return "Set image: the container's image changes; the controller rolls the new pod template out as a new revision, from the first step";
  }
}
