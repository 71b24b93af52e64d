import { Message, Reason } from "./conditions";
import { podHashOf, revisionOf, type ReconcileContext } from "./context";
import { atDesiredReplicaCountsForCanary } from "./canary-replicas";
import { availableReplicas, currentSetWeight, currentStepOf, maxTrafficWeight, previousSetWeight, replicasOf, stepsOf } from "./steps";
import { ensureSVCTargets } from "./services";
import { newTrafficRouters } from "./traffic-routers";
import type { ReplicaSet, Rollout, TrafficWeights } from "./types";

/** ROLLOUT_VERIFY_RETRY_INTERVAL default. */
const VERIFY_RETRY_SECONDS = 10;

function sameDestination(a: { weight: number; serviceName?: string; podTemplateHash?: string }, b: typeof a): boolean {
  return (
    a.weight === b.weight && (a.serviceName ?? "") === (b.serviceName ?? "") && (a.podTemplateHash ?? "") === (b.podTemplateHash ?? "")
  );
}

/** `calculateWeightStatus` (`rollout/trafficrouting.go`): stable = max − canary; modified when either side changed. */
export function calculateWeightStatus(
  ro: Rollout,
  canaryHash: string,
  stableHash: string,
  desiredWeight: number,
): { modified: boolean; weights: TrafficWeights } {
  const canary = ro.spec.strategy.canary;
  const weights: TrafficWeights = {
    canary: {
      weight: desiredWeight,
      ...(canary?.canaryService ? { serviceName: canary.canaryService } : {}),
      ...(canaryHash ? { podTemplateHash: canaryHash } : {}),
    },
    stable: {
      weight: maxTrafficWeight(ro) - desiredWeight,
      ...(canary?.stableService ? { serviceName: canary.stableService } : {}),
      ...(stableHash ? { podTemplateHash: stableHash } : {}),
    },
  };
  const prev = ro.status?.canary?.weights;
  const modified = !prev || !sameDestination(prev.canary, weights.canary) || !sameDestination(prev.stable, weights.stable);
  return { modified, weights };
}

/** `trafficWeightUpdatedMessage`: "to 10", "from 10 to 30" (or nothing when only the hashes moved). */
export function trafficWeightUpdatedMessage(prev: TrafficWeights | undefined, next: TrafficWeights): string {
  const details: string[] = [];
  if (!prev) details.push(`to ${next.canary.weight}`);
  else if (prev.canary.weight !== next.canary.weight) details.push(`from ${prev.canary.weight} to ${next.canary.weight}`);
  return `Traffic weight updated ${details.join(", ")}`;
}

/**
 * `checkReplicasAvailable`: whether the stable ReplicaSet has the pods for its share of traffic (none when there is
 * no stable ReplicaSet yet, as on an initial deploy).
 */
function stableCanTakeWeight(ro: Rollout, stableRS: ReplicaSet | undefined, stableWeight: number): boolean {
  if (!stableRS) return false;
  const desiredReplicas = Math.trunc((stableWeight * replicasOf(ro)) / maxTrafficWeight(ro));
  return availableReplicas(stableRS) >= desiredReplicas;
}

/**
 * Port of `reconcileTrafficRouting`: computes the desired canary weight, drives every router (built-ins, then
 * plugins) through UpdateHash → SetWeight → VerifyWeight and records weights in the new status. Returns an error
 * string when the reconcile must stop (status then is not persisted).
 */
export function reconcileTrafficRouting(ctx: ReconcileContext): string | null {
  const { routers, error } = newTrafficRouters(ctx.ro, ctx.deps.routerEnv(ctx));
  if (error) return error;
  if (routers.length === 0) {
    if (ctx.newStatus.canary) delete ctx.newStatus.canary.weights;
    return null;
  }
  const ro = ctx.ro;
  const status = ro.status ?? {};
  const canaryStatus = ctx.newStatus.canary ?? (ctx.newStatus.canary = {});
  for (const router of routers) {
    router.type();
    const { step, index } = currentStepOf(ro);
    let desiredWeight = 0;
    const stableHash = podHashOf(ctx.stableRS);
    const canaryHash = podHashOf(ctx.newRS);
    const fullyPromoted = status.stableRS === status.currentPodHash;
    let err: string | null = null;
    if (fullyPromoted) {
      err = router.removeManagedRoutes();
    } else if (ctx.pause.isAborted()) {
      desiredWeight = 0;
      ensureSVCTargets(ctx, ro.spec.strategy.canary?.canaryService, ctx.stableRS, false);
      err = router.removeManagedRoutes();
    } else if (!ctx.newRS || availableReplicas(ctx.newRS) === 0) {
      desiredWeight = 0;
      err = router.removeManagedRoutes();
    } else if (status.promoteFull) {
      desiredWeight = status.canary?.weights?.canary.weight ?? 0;
      err = router.removeManagedRoutes();
    } else if (index !== null) {
      if (!atDesiredReplicaCountsForCanary(ro, ctx.newRS, ctx.stableRS, ctx.otherRSs)) {
        desiredWeight = previousSetWeight(ro, index);
      } else if (index !== stepsOf(ro).length) {
        desiredWeight = currentSetWeight(ro);
      } else {
        desiredWeight = maxTrafficWeight(ro);
      }
    }
    if (err) return err;
    // Upstream leaves routing alone (no error) until the stable ReplicaSet can take its share.
    if (!stableCanTakeWeight(ro, ctx.stableRS, maxTrafficWeight(ro) - desiredWeight)) return null;
    if (step && revisionOf(ro) > 1) {
      if (step.setHeaderRoute) err = router.setHeaderRoute(step.setHeaderRoute);
      if (!err && step.setMirrorRoute) err = router.setMirrorRoute(step.setMirrorRoute);
      if (err) return err;
    }
    // A canary without available pods gets its weight back to 0 before the hash moves to it.
    if ((!ctx.newRS || availableReplicas(ctx.newRS) === 0) && (status.canary?.weights?.canary.weight ?? 0) > 0) {
      err = router.setWeight(desiredWeight);
      if (err) {
        ctx.event("Warning", "TrafficRoutingError", err);
        return err;
      }
    }
    err = router.updateHash(canaryHash, stableHash);
    if (err) return err;
    err = router.setWeight(desiredWeight);
    if (err) {
      ctx.event("Warning", "TrafficRoutingError", err);
      return err;
    }
    const { modified, weights } = calculateWeightStatus(ro, canaryHash, stableHash, desiredWeight);
    if (modified) {
      // Upstream compares with the stored weights for every router, so two routers emit two events.
      ctx.event("Normal", Reason.TrafficWeightUpdated, trafficWeightUpdatedMessage(status.canary?.weights, weights));
      canaryStatus.weights = weights;
    }
    const weightsNow = canaryStatus.weights ?? weights;
    canaryStatus.weights = weightsNow;
    const verify = router.verifyWeight(desiredWeight);
    if (verify.verified === undefined) delete weightsNow.verified;
    else weightsNow.verified = verify.verified;
    ctx.weightVerified = verify.verified;
    if (verify.error) {
      ctx.event("Warning", Reason.WeightVerifyError, Message.weightVerifyError(verify.error));
      return null;
    }
    if (verify.verified === false) ctx.requeueAfter(VERIFY_RETRY_SECONDS);
  }
  return null;
}
