import type { ActionRolloutState } from "./action-rollout-state";
import { planPromotePatches } from "./plan";
import type { RolloutAction } from "./schema";

export interface ActionAvailability {
  readonly enabled: boolean;
  /** Why the action is disabled, in plain words; absent when enabled. */
  readonly reason?: string;
}

export type RolloutActionAvailability = Readonly<Record<RolloutAction, ActionAvailability>>;

export interface ActionAvailabilityView {
  /** The phase as `GetRolloutPhase` derives it (`utils/rollout/rolloututil.go`); falls back to `status.phase`. */
  readonly phase?: string | null;
}

const ENABLED: ActionAvailability = { enabled: true };

function disabled(reason: string): ActionAvailability {
  return { enabled: false, reason };
}

/**
 * Which buttons to enable, and why not. The phase gates follow the official dashboard
 * (`ui/src/app/components/rollout-actions/rollout-actions.tsx`): RETRY only when Degraded (or aborted),
 * ABORT/PROMOTE/PROMOTE-FULL only when Progressing or Paused, RESTART always. On top of that, a button is
 * disabled when it would do nothing: promote with no patch from `getPatches` or on an aborted Rollout (the
 * controller keeps `status.abort`; only promoteFull clears it, `rollout/canary.go`, so promote-full stays offered
 * there as `kubectl argo rollouts promote --full` allows), promote-full when
 * `currentPodHash == stableRS`, abort when already aborted, pause/resume that would not change `spec.paused`.
 */
export function deriveActionAvailability(rollout: ActionRolloutState, view: ActionAvailabilityView = {}): RolloutActionAvailability {
  const status = rollout.status;
  const phase = view.phase ?? status?.phase ?? undefined;
  const aborted = status?.abort === true;
  const specPaused = rollout.spec?.paused === true;
  const inFlight = phase === "Progressing" || phase === "Paused";
  const phaseReason = (label: string) =>
    `${label} is only available while the Rollout is Progressing or Paused (it is ${phase ?? "in an unknown phase"})`;

  const promote = aborted
    ? disabled("Rollout is aborted; retry it before promoting")
    : !inFlight
      ? disabled(phaseReason("Promote"))
      : planPromotePatches(rollout, false).length === 0
        ? disabled("Nothing to promote: the Rollout is not paused and has no step to skip")
        : ENABLED;

  // `promote --full` on an aborted (Degraded) Rollout is what the CLI allows: the controller clears the abort and
  // completes the update (`rollout/canary.go`, promoteFull).
  const promoteFull =
    !inFlight && !aborted
      ? disabled(phaseReason("Promote full"))
      : (status?.currentPodHash ?? "") === (status?.stableRS ?? "")
        ? disabled("Already fully promoted")
        : ENABLED;

  const abort = aborted ? disabled("Rollout is already aborted") : !inFlight ? disabled(phaseReason("Abort")) : ENABLED;

  const retry = aborted || phase === "Degraded" ? ENABLED : disabled("Retry is only available after an abort");

  const pause = specPaused ? disabled("Rollout is already paused") : ENABLED;

  const resume = specPaused
    ? ENABLED
    : (status?.pauseConditions ?? []).length > 0
      ? disabled("Rollout is paused by a step or analysis, not manually; use Promote to continue")
      : disabled("Rollout is not manually paused");

  const setImage =
    rollout.spec?.workloadRef !== undefined && rollout.spec.workloadRef !== null
      ? disabled("Set image of a Rollout with a workloadRef is not supported: change the referenced workload")
      : ENABLED;

  return {
    promote,
    "promote-full": promoteFull,
    abort,
    retry,
    pause,
    resume,
    restart: ENABLED,
    undo: deriveUndoAvailability(rollout),
    "set-image": setImage,
  };
}

/** Undo needs an earlier revision (the revision annotation above 1) and, in Rollscope, no workloadRef. */
function deriveUndoAvailability(rollout: ActionRolloutState): ActionAvailability {
  if (rollout.spec?.workloadRef !== undefined && rollout.spec.workloadRef !== null)
    return disabled("Undo of a Rollout with a workloadRef is not supported");
  const revision = Number(rollout.metadata?.annotations?.["rollout.argoproj.io/revision"] ?? "0");
  return revision > 1 ? ENABLED : disabled("There is no earlier revision to roll back to");
}
