import { objectKey } from "./cluster-cache";
import type { ReconcileContext } from "./context";
import { T } from "./resource-types";
import { replicasOf } from "./steps";

/**
 * `RolloutPodRestarter`: after spec.restartAt, evicts pods created before it a few at a time (a quarter of the
 * replicas, at least one, only while everything is available) and then sets status.restartedAt.
 */
export function reconcilePodRestart(ctx: ReconcileContext): void {
  const restartAt = ctx.ro.spec.restartAt;
  if (!restartAt) return;
  const at = Date.parse(restartAt);
  if (!Number.isFinite(at)) return;
  const now = ctx.deps.clock.now();
  if (at > now) {
    ctx.requeueAfter(((at - now) * ctx.deps.clock.timeScale) / 1000);
    return;
  }
  if (ctx.ro.status?.restartedAt && Date.parse(ctx.ro.status.restartedAt) === at) return;
  const pods = ctx.allRSs.flatMap((rs) => ctx.deps.cache.podsOf(objectKey(rs)));
  const old = pods.filter((p) => Date.parse(p.metadata.creationTimestamp ?? "") < at);
  if (old.length === 0) {
    ctx.newStatus.restartedAt = restartAt;
    return;
  }
  const allAvailable = ctx.allRSs.every((rs) => (rs.status?.availableReplicas ?? 0) >= (rs.spec.replicas ?? 0));
  if (!allAvailable) return;
  for (const pod of old.slice(0, Math.max(1, Math.floor(replicasOf(ctx.ro) / 4)))) {
    ctx.deps.client.delete(T.pods, pod.metadata.namespace, pod.metadata.name);
  }
}
