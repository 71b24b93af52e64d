import { rolloutBlueGreen } from "./blue-green";
import { rolloutCanary } from "./canary";
import { getCondition, newCondition, setCondition } from "./conditions";
import { ReconcileContext, type ControllerDeps } from "./context";
import { desiredPodHash } from "./replica-sets";
import { maxTrafficWeight } from "./steps";
import { checkPausedConditions, writeStatus } from "./sync-status";
import type { Rollout } from "./types";

export interface ReconcileResult {
  error: string | null;
  /** Simulated seconds until the rollout wants another pass. */
  requeueSeconds: number | null;
  /** Simulated plugin RPC time, added to the rollout_reconcile observation. */
  rpcLatencyMs: number;
}

/** `getRolloutValidationErrors`, reduced to a missing strategy or template and setWeight out of range. */
function invalidSpec(ro: Rollout): string | null {
  if (!ro.spec?.strategy || (!ro.spec.strategy.canary && !ro.spec.strategy.blueGreen))
    return "Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'";
  if (!ro.spec.template) return "Rollout has missing field '.spec.template'";
  const max = maxTrafficWeight(ro);
  for (const [i, step] of (ro.spec.strategy.canary?.steps ?? []).entries()) {
    if (step.setWeight !== undefined && (step.setWeight < 0 || step.setWeight > max)) {
      // Upstream's field path omits `.canary` (ValidateRolloutStrategyCanary is given spec.strategy).
      return `The Rollout "${ro.metadata.name}" is invalid: spec.strategy.steps[${i}].setWeight: Invalid value: ${step.setWeight}: SetWeight needs to be between 0 and ${max}`;
    }
  }
  return null;
}

/** Upstream `rolloutContext.reconcile`: paused conditions first, then the strategy. */
export function reconcileRollout(deps: ControllerDeps, ro: Rollout): ReconcileResult {
  const ctx = new ReconcileContext(deps, ro);
  const invalid = invalidSpec(ro);
  if (invalid) {
    const status = structuredClone(ro.status ?? {});
    if (getCondition(status, "InvalidSpec")?.message !== invalid) {
      setCondition(status, newCondition("InvalidSpec", "True", "InvalidSpec", invalid, ctx.now));
      writeStatus(ctx, status);
    }
    // Upstream returns the validation error: a reconcile error (rollout_reconcile_error), retried with back-off.
    return { error: invalid, requeueSeconds: null, rpcLatencyMs: 0 };
  }
  checkPausedConditions(ctx);
  const hash = desiredPodHash(ctx.ro);
  ctx.loadReplicaSets(hash);
  const error = ctx.ro.spec.strategy.blueGreen ? rolloutBlueGreen(ctx, hash) : rolloutCanary(ctx, hash);
  return { error, requeueSeconds: ctx.requeueSeconds, rpcLatencyMs: ctx.rpcLatencyMs };
}
