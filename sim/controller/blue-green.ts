import { podHashOf, type ReconcileContext } from "./context";
import { getPauseCondition } from "./pause-context";
import { reconcilePodRestart } from "./pod-restarter";
import { getAllReplicaSetsAndSyncRevision, reconcileRevisionHistoryLimit, scaleDownDeadline, scaleReplicaSet } from "./replica-sets";
import { ensureServiceTarget } from "./services";
import { replicasOf } from "./steps";
import { calculateBaseStatus, calculateRolloutConditions, persistRolloutStatus, promoteStable, resetRolloutStatus } from "./sync-status";
import type { BlueGreenStrategy, ReplicaSet } from "./types";

const DEFAULT_SCALE_DOWN_DELAY_SECONDS = 30;

function strategy(ctx: ReconcileContext): BlueGreenStrategy {
  return ctx.ro.spec.strategy.blueGreen as BlueGreenStrategy;
}

function saturated(ctx: ReconcileContext, rs: ReplicaSet | undefined): boolean {
  if (!rs) return false;
  const desired = rs.spec.replicas ?? 0;
  return desired === desiredNewReplicas(ctx) && (rs.status?.availableReplicas ?? 0) >= desired;
}

function desiredNewReplicas(ctx: ReconcileContext): number {
  const bg = strategy(ctx);
  const active = ctx.newStatus.blueGreen?.activeSelector;
  if (bg.previewReplicaCount !== undefined && active && active !== podHashOf(ctx.newRS)) return bg.previewReplicaCount;
  return replicasOf(ctx.ro);
}

/** `CompletedBlueGreenPause`: auto-promotion after autoPromotionSeconds, or a human removed the pause condition. */
function completedBlueGreenPause(ctx: ReconcileContext): boolean {
  const ro = ctx.ro;
  const bg = strategy(ctx);
  const cond = getPauseCondition(ro, "BlueGreenPause");
  if (ctx.pause.hasAddPause()) return false;
  if (ro.status?.promoteFull) return true;
  if (bg.autoPromotionEnabled !== false) {
    const seconds = bg.autoPromotionSeconds ?? 0;
    if (seconds === 0) return true;
    if (!cond) return false;
    const elapsed = ctx.elapsedSince(`pause:${cond.reason}`, cond.startTime);
    if (elapsed > seconds) return true;
    ctx.requeueAfter(seconds - elapsed);
    return false;
  }
  return !!ro.status?.controllerPause && !cond;
}

function reconcileBlueGreenReplicaSets(ctx: ReconcileContext): void {
  const active = ctx.newStatus.blueGreen?.activeSelector;
  if (ctx.newRS) {
    const target = ctx.pause.isAborted() && active !== podHashOf(ctx.newRS) ? 0 : desiredNewReplicas(ctx);
    scaleReplicaSet(ctx, ctx.newRS, target);
  }
  for (const rs of ctx.allRSs) {
    if (rs === ctx.newRS || (rs.spec.replicas ?? 0) === 0) continue;
    if (podHashOf(rs) === active) {
      scaleReplicaSet(ctx, rs, replicasOf(ctx.ro));
      continue;
    }
    if (rs.metadata.annotations?.["scale-down-deadline"]) {
      const left = scaleDownDeadline(ctx, rs, 0);
      if (left > 0) {
        ctx.requeueAfter(left);
        continue;
      }
    }
    scaleReplicaSet(ctx, rs, 0);
  }
}

/** Port of `rolloutBlueGreen`, without pre/post-promotion analysis. */
export function rolloutBlueGreen(ctx: ReconcileContext, desiredHash: string): string | null {
  const bg = strategy(ctx);
  const templateChanged = ctx.ro.status?.currentPodHash !== desiredHash;
  // Upstream creates the desired ReplicaSet before the strategy runs (newRolloutContext), template change or not.
  const err = getAllReplicaSetsAndSyncRevision(ctx, true);
  if (err) return err;
  const blueGreen = ctx.newStatus.blueGreen ?? (ctx.newStatus.blueGreen = {});
  if (!templateChanged) {
    reconcilePodRestart(ctx);
    reconcileRevisionHistoryLimit(ctx);
    reconcileBlueGreenReplicaSets(ctx);
    const newHash = podHashOf(ctx.newRS);
    if (ctx.newRS && saturated(ctx, ctx.newRS)) {
      blueGreen.previewSelector = newHash;
      ensureServiceTarget(ctx, bg.previewService, newHash);
    }
    const active = blueGreen.activeSelector;
    if (!active) {
      blueGreen.activeSelector = newHash;
    } else if (active !== newHash && saturated(ctx, ctx.newRS) && !ctx.pause.isAborted()) {
      const autoImmediate = bg.autoPromotionEnabled !== false && (bg.autoPromotionSeconds ?? 0) === 0;
      const cond = getPauseCondition(ctx.ro, "BlueGreenPause");
      if (!autoImmediate && !cond && !ctx.ro.status?.controllerPause && !ctx.ro.status?.promoteFull) {
        ctx.pause.addPauseCondition("BlueGreenPause");
      } else if (completedBlueGreenPause(ctx)) {
        const previous = ctx.allRSs.find((rs) => podHashOf(rs) === active);
        blueGreen.activeSelector = newHash;
        if (previous) scaleDownDeadline(ctx, previous, bg.scaleDownDelaySeconds ?? DEFAULT_SCALE_DOWN_DELAY_SECONDS);
      }
    }
    ensureServiceTarget(ctx, bg.activeService, blueGreen.activeSelector);
  }
  const newStatus = calculateBaseStatus(ctx);
  newStatus.stableRS = ctx.ro.status?.stableRS;
  const activeRS = ctx.allRSs.find((rs) => podHashOf(rs) === newStatus.blueGreen?.activeSelector);
  const labels = {
    ...(ctx.ro.spec.selector?.matchLabels ?? {}),
    ...(activeRS ? { "rollouts-pod-template-hash": podHashOf(activeRS) } : {}),
  };
  newStatus.selector = Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  if (templateChanged) {
    resetRolloutStatus(ctx, newStatus);
    newStatus.blueGreen = { ...(ctx.ro.status?.blueGreen ?? {}) };
  }
  // No early return (upstream's syncRolloutStatusBlueGreen goes on): an initial deploy is promoted in its first pass.
  if (ctx.ro.status?.promoteFull) {
    ctx.pause.clearPauseConditions();
    ctx.pause.removeAbort();
  }
  const active = newStatus.blueGreen?.activeSelector;
  let reason = "";
  if (!ctx.stableRS || !active) reason = "Initial deploy";
  else if (active === newStatus.currentPodHash && !ctx.pause.isAborted())
    reason = ctx.ro.status?.promoteFull ? "Full promotion requested" : "Completed blue-green update";
  if (reason) promoteStable(ctx, newStatus, reason);
  // Counted on the active ReplicaSet (ready included); without one, over all of them (ready is already that).
  if (activeRS) {
    newStatus.HPAReplicas = activeRS.status?.replicas ?? 0;
    newStatus.availableReplicas = activeRS.status?.availableReplicas ?? 0;
    newStatus.readyReplicas = activeRS.status?.readyReplicas ?? 0;
  } else {
    newStatus.HPAReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.replicas ?? 0), 0);
    newStatus.availableReplicas = ctx.allRSs.reduce((n, rs) => n + (rs.status?.availableReplicas ?? 0), 0);
  }
  persistRolloutStatus(ctx, calculateRolloutConditions(ctx, newStatus));
  return null;
}
