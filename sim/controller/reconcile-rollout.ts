import { rolloutBlueGreen } from "./blue-green";
import { rolloutCanary } from "./canary";
import { getCondition, newCondition, setCondition } from "./conditions";
import { ReconcileContext, type ControllerDeps } from "./context";
import { desiredPodHash } from "./replica-sets";
import { checkPausedConditions, writeStatus } from "./sync-status";
import type { Rollout } from "./types";

export interface ReconcileResult {
  error: string | null;
  /** Simulated seconds until the rollout wants another pass. */
  requeueSeconds: number | null;
  /** Simulated plugin RPC time, added to the rollout_reconcile observation. */
  rpcLatencyMs: number;
}

/** `getRolloutValidationErrors`, reduced to a missing strategy. */
function invalidSpec(ro: Rollout): string | null {
  if (!ro.spec?.strategy || (!ro.spec.strategy.canary && !ro.spec.strategy.blueGreen)) return "Rollout has missing field '.spec.strategy.canary or .spec.strategy.blueGreen'";
  if (!ro.spec.template) return "Rollout has missing field '.spec.template'";
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
    return { error: null, requeueSeconds: null, rpcLatencyMs: 0 };
  }
  checkPausedConditions(ctx);
  const hash = desiredPodHash(ctx.ro);
  ctx.loadReplicaSets(hash);
  const error = ctx.ro.spec.strategy.blueGreen ? rolloutBlueGreen(ctx, hash) : rolloutCanary(ctx, hash);
  return { error, requeueSeconds: ctx.requeueSeconds, rpcLatencyMs: ctx.rpcLatencyMs };
}
