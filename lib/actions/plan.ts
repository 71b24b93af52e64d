import type { ActionRolloutState } from "./action-rollout-state";
import type { RolloutAction } from "./schema";

/** A JSON merge-patch document (`application/merge-patch+json`). */
export type MergePatchBody = Readonly<Record<string, unknown>>;

export interface KubeGetRequest {
  readonly kind: "get";
}

/**
 * One merge patch on the Rollout: `target: 'status'` is `PATCH …/rollouts/{name}/status`, `'main'` is
 * `PATCH …/rollouts/{name}`. When a `/status` patch answers 404 and `onNotFound` is set, the executor sends
 * `onNotFound.body` to the main resource INSTEAD OF this and every remaining patch of the plan — upstream
 * replaces `specPatch` with `unifiedPatch` (a CRD without the status subresource, Rollouts ≤ v0.9).
 */
export interface KubePatchRequest {
  readonly kind: "patch";
  readonly target: "status" | "main";
  readonly patchType: "merge";
  readonly body: MergePatchBody;
  readonly onNotFound?: { readonly target: "main"; readonly body: MergePatchBody };
}

export type KubeRequest = KubeGetRequest | KubePatchRequest;

/**
 * How to carry out an action. Executor:
 * `const patches = plan.needsGet ? plan.planAfterGet(await getRollout()) : plan.requests;`
 * then send `patches` in order, honouring `onNotFound`.
 */
export type ActionPlan =
  | {
      readonly action: RolloutAction;
      readonly needsGet: false;
      /** The exact patches to send, in order. */
      readonly requests: readonly KubePatchRequest[];
    }
  | {
      readonly action: RolloutAction;
      readonly needsGet: true;
      /** Preview only: GET, then the patches the caller's (possibly stale) state would produce. */
      readonly requests: readonly KubeRequest[];
      /** The patches to send, decided from the Rollout the executor just read, as upstream does. */
      readonly planAfterGet: (rolloutFromGet: ActionRolloutState) => readonly KubePatchRequest[];
    };

function patchMain(body: MergePatchBody): KubePatchRequest {
  return { kind: "patch", target: "main", patchType: "merge", body };
}

function patchStatus(body: MergePatchBody, unifiedBody: MergePatchBody): KubePatchRequest {
  const onNotFound = { target: "main", body: unifiedBody } as const;
  return { kind: "patch", target: "status", patchType: "merge", body, onNotFound };
}

/**
 * `replicasetutil.GetCurrentCanaryStep`'s index: undefined without canary steps, 0 when
 * `currentStepIndex` is unset, otherwise `currentStepIndex` (possibly `len(steps)` = all done).
 */
function readCurrentCanaryStepIndex(rollout: ActionRolloutState): number | undefined {
  const steps = rollout.spec?.strategy?.canary?.steps ?? [];
  if (rollout.spec?.strategy?.canary == null || steps.length === 0) return undefined;
  return rollout.status?.currentStepIndex ?? 0;
}

/** The index promote writes: one past the current step, never past `len(steps)`. */
function nextStepIndex(rollout: ActionRolloutState): number | undefined {
  const index = readCurrentCanaryStepIndex(rollout);
  if (index === undefined) return undefined;
  const stepCount = rollout.spec?.strategy?.canary?.steps?.length ?? 0;
  return index < stepCount ? index + 1 : index;
}

/** The default promote's `/status` patch and its NotFound fallback, or undefined when upstream sends none. */
function planPromoteStatusPatch(rollout: ActionRolloutState): KubePatchRequest | undefined {
  const status = rollout.status;
  const isCanary = rollout.spec?.strategy?.canary != null;
  const hasPauseConditions = (status?.pauseConditions ?? []).length > 0;
  const unpauseAndClear = { spec: { paused: false }, status: { pauseConditions: null } };
  const inconclusive = isCanary && status?.canary?.currentStepAnalysisRunStatus?.status === "Inconclusive";

  // Case A: a step analysis came back Inconclusive and the controller paused on it.
  if (inconclusive && hasPauseConditions && status?.controllerPause === true) {
    const next = nextStepIndex(rollout);
    // Upstream keeps the plain unified patch here (no controllerPause/currentStepIndex); no steps, no patch.
    if (next === undefined) return undefined;
    const body = { status: { pauseConditions: null, controllerPause: false, currentStepIndex: next } };
    return patchStatus(body, unpauseAndClear);
  }
  // Case B: any pause condition (canary pause step, BlueGreenPause, inconclusive without controllerPause…).
  if (hasPauseConditions) return patchStatus({ status: { pauseConditions: null } }, unpauseAndClear);
  // Case C: a canary not paused by the controller (running analysis/experiment, waiting on replicas): skip the step.
  if (isCanary) {
    const next = nextStepIndex(rollout);
    if (next === undefined) return undefined;
    return patchStatus(
      { status: { pauseConditions: null, currentStepIndex: next } },
      { spec: { paused: false }, status: { pauseConditions: null, currentStepIndex: next } },
    );
  }
  // Blue-green without pause conditions: nothing to clear.
  return undefined;
}

/** `--full`: ask the controller to skip to the end, unless the new pods are already the stable ones. */
function planPromoteFullStatusPatch(rollout: ActionRolloutState): KubePatchRequest | undefined {
  const status = rollout.status;
  if ((status?.currentPodHash ?? "") === (status?.stableRS ?? "")) return undefined;
  return patchStatus({ status: { promoteFull: true } }, { spec: { paused: false }, status: { promoteFull: true } });
}

/**
 * The patches `kubectl argo rollouts promote [--full]` sends after its GET, in order: the `/status` patch
 * first (with its NotFound fallback), then `{"spec":{"paused":false}}` when `spec.paused`.
 * Mirrors `getPatches` and `PromoteRollout` in `pkg/kubectl-argo-rollouts/cmd/promote/promote.go`:
 * - full: `{"status":{"promoteFull":true}}` unless `currentPodHash == stableRS` (already promoted);
 *   the spec unpause on full is argoproj/argo-rollouts#4412; older CLIs leave `spec.paused` alone.
 * - default, case A: canary, step analysis Inconclusive, pause conditions and `controllerPause` →
 *   `{"status":{"pauseConditions":null,"controllerPause":false,"currentStepIndex":next}}`.
 * - default, case B: any pause condition → `{"status":{"pauseConditions":null}}`.
 * - default, case C: canary without pause conditions → `{"status":{"pauseConditions":null,"currentStepIndex":next}}`.
 * `next` is `currentStepIndex + 1` (unset reads as 0), capped at `len(steps)`; with no canary steps
 * cases A and C send no status patch. An empty list means upstream patches nothing (the GET was all).
 */
export function planPromotePatches(rolloutFromGet: ActionRolloutState, full: boolean): readonly KubePatchRequest[] {
  const statusPatch = full ? planPromoteFullStatusPatch(rolloutFromGet) : planPromoteStatusPatch(rolloutFromGet);
  const specPatch = rolloutFromGet.spec?.paused === true ? patchMain({ spec: { paused: false } }) : undefined;
  return [statusPatch, specPatch].filter((patch): patch is KubePatchRequest => patch !== undefined);
}

/** RFC 3339 in UTC with whole seconds, as Go's `time.Format(time.RFC3339)` prints a UTC time. */
export function formatRestartAt(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * Plans the Kubernetes requests for one action, byte-for-byte what the CLI sends:
 * - promote / promote-full: GET, then {@link planPromotePatches} on the GET's result (`promote/promote.go`).
 * - abort: `/status` `{"status":{"abort":true}}`, NotFound → same body on main (`abort/abort.go`).
 * - retry: `/status` `{"status":{"abort":false}}`, NotFound → same body on main (`retry/retry.go`).
 * - pause: main `{"spec":{"paused":true}}` (`pause/pause.go`).
 * - resume: main `{"spec":{"paused":false}}` — no upstream command; Argo CD's "resume" action minus promotion.
 * - restart: main `{"spec":{"restartAt":"<now, RFC 3339 UTC>"}}` (`restart/restart.go`, no `--in`).
 * `rollout` only feeds the promote preview; the executor must re-plan promote from its own GET.
 */
export function planActionRequests(action: RolloutAction, rollout: ActionRolloutState, now: Date): ActionPlan {
  switch (action) {
    case "promote":
    case "promote-full": {
      const full = action === "promote-full";
      return {
        action,
        needsGet: true,
        requests: [{ kind: "get" }, ...planPromotePatches(rollout, full)],
        planAfterGet: (rolloutFromGet) => planPromotePatches(rolloutFromGet, full),
      };
    }
    case "abort":
    case "retry": {
      const body = { status: { abort: action === "abort" } };
      return { action, needsGet: false, requests: [patchStatus(body, body)] };
    }
    case "pause":
      return { action, needsGet: false, requests: [patchMain({ spec: { paused: true } })] };
    case "resume":
      return { action, needsGet: false, requests: [patchMain({ spec: { paused: false } })] };
    case "restart":
      return { action, needsGet: false, requests: [patchMain({ spec: { restartAt: formatRestartAt(now) } })] };
    case "undo":
      // Not merge patches: GET, LIST ReplicaSets, then one JSON Patch, decided by `decideUndo` (./undo.ts).
      return { action, needsGet: false, requests: [] };
    case "set-image":
      // Not a patch: GET, then the whole object back with the image replaced (`setRolloutImage`, ./set-image.ts).
      return { action, needsGet: false, requests: [] };
  }
}
