import { StoreError } from "../store/object-store";
import { getCondition, Message, newCondition, Reason, setCondition } from "./conditions";
import { POD_HASH_LABEL, REVISION_ANNOTATION, SCALE_DOWN_DEADLINE_ANNOTATION, revisionOf, type ReconcileContext } from "./context";
import { computePodTemplateHash } from "./hash";
import { T } from "./resource-types";
import { replicasOf } from "./steps";
import type { ReplicaSet, Rollout } from "./types";

const DESIRED_REPLICAS_ANNOTATION = "rollout.argoproj.io/desired-replicas";

export function desiredPodHash(ro: Rollout): string {
  return computePodTemplateHash(ro.spec.template, ro.status?.collisionCount);
}

function maxRevision(rss: ReplicaSet[]): number {
  return rss.reduce((max, rs) => Math.max(max, revisionOf(rs)), 0);
}

/** `setRolloutRevision`: copies the revision annotation onto the Rollout (main resource) and emits RolloutUpdated. */
function setRolloutRevision(ctx: ReconcileContext, revision: number): void {
  if (revisionOf(ctx.ro) === revision) return;
  ctx.deps.client.update(T.rollouts, ctx.ro.metadata.namespace, ctx.ro.metadata.name, (draft) => {
    draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(revision) };
  });
  ctx.refresh();
  ctx.event("Normal", Reason.RolloutUpdated, Message.rolloutUpdated(revision));
}

function writeStatusCondition(ctx: ReconcileContext, mutate: (status: NonNullable<Rollout["status"]>) => void): void {
  ctx.deps.client.update(
    T.rollouts,
    ctx.ro.metadata.namespace,
    ctx.ro.metadata.name,
    (draft) => {
      const status = (draft.status ?? {}) as NonNullable<Rollout["status"]>;
      mutate(status);
      draft.status = status;
    },
    { subresource: "status", verb: "Update" },
  );
  ctx.refresh();
}

/**
 * `getAllReplicaSetsAndSyncRevision`: finds the ReplicaSet matching the template, bumps its revision above the
 * older ones (a rollback makes an old ReplicaSet new again), and creates it when asked to.
 */
export function getAllReplicaSetsAndSyncRevision(ctx: ReconcileContext, createIfNotExisted: boolean): string | null {
  const hash = desiredPodHash(ctx.ro);
  ctx.loadReplicaSets(hash);
  const older = ctx.allRSs.filter((rs) => rs !== ctx.newRS);
  const newRevision = maxRevision(older) + 1;
  if (ctx.newRS) {
    const rs = ctx.newRS;
    if (revisionOf(rs) < newRevision) {
      const updated = ctx.deps.client.update(T.replicaSets, rs.metadata.namespace, rs.metadata.name, (draft) => {
        draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), [REVISION_ANNOTATION]: String(newRevision) };
      }) as ReplicaSet;
      ctx.replaceReplicaSet(updated);
    }
    setRolloutRevision(ctx, revisionOf(ctx.newRS ?? rs));
    if (!getCondition(ctx.ro.status ?? {}, "Progressing")) {
      writeStatusCondition(ctx, (status) =>
        setCondition(
          status,
          newCondition("Progressing", "True", Reason.FoundNewReplicaSet, Message.foundNewReplicaSet(rs.metadata.name), ctx.now),
        ),
      );
    }
    return null;
  }
  if (!createIfNotExisted) return null;
  return createDesiredReplicaSet(ctx, hash, newRevision);
}

function createDesiredReplicaSet(ctx: ReconcileContext, hash: string, revision: number): string | null {
  const ro = ctx.ro;
  const name = `${ro.metadata.name}-${hash}`;
  const template = structuredClone(ro.spec.template);
  const labels = { ...(template.metadata?.labels ?? {}), [POD_HASH_LABEL]: hash };
  template.metadata = { ...(template.metadata ?? {}), labels };
  let created: ReplicaSet;
  try {
    created = ctx.deps.client.create(T.replicaSets, ro.metadata.namespace, {
      apiVersion: "apps/v1",
      kind: "ReplicaSet",
      metadata: {
        name,
        namespace: ro.metadata.namespace,
        labels,
        annotations: { [REVISION_ANNOTATION]: String(revision), [DESIRED_REPLICAS_ANNOTATION]: String(replicasOf(ro)) },
        ownerReferences: [
          { apiVersion: "argoproj.io/v1alpha1", kind: "Rollout", name: ro.metadata.name, uid: ro.metadata.uid ?? "", controller: true },
        ],
      },
      spec: {
        replicas: 0,
        selector: { matchLabels: { ...(ro.spec.selector?.matchLabels ?? {}), [POD_HASH_LABEL]: hash } },
        template,
      },
    }) as ReplicaSet;
  } catch (err) {
    if (err instanceof StoreError && err.reason === "AlreadyExists") {
      // A ReplicaSet of that name we do not own, or with another template: a hash collision.
      writeStatusCondition(ctx, (status) => {
        status.collisionCount = (status.collisionCount ?? 0) + 1;
      });
      return `replicasets.apps "${name}" already exists`;
    }
    throw err;
  }
  ctx.allRSs = [...ctx.allRSs, created];
  ctx.newRS = created;
  setRolloutRevision(ctx, revision);
  ctx.event("Normal", Reason.NewReplicaSetCreated, Message.newReplicaSetDetailed(name, revision));
  writeStatusCondition(ctx, (status) =>
    setCondition(status, newCondition("Progressing", "True", Reason.NewReplicaSetCreated, Message.newReplicaSet(name), ctx.now)),
  );
  return null;
}

/** `scaleReplicaSetAndRecordEvent`: returns whether the size changed. */
export function scaleReplicaSet(ctx: ReconcileContext, rs: ReplicaSet, newScale: number): boolean {
  const current = rs.spec.replicas ?? 0;
  const desiredAnnotation = String(replicasOf(ctx.ro));
  if (current === newScale && rs.metadata.annotations?.[DESIRED_REPLICAS_ANNOTATION] === desiredAnnotation) return false;
  const updated = ctx.deps.client.update(T.replicaSets, rs.metadata.namespace, rs.metadata.name, (draft) => {
    (draft.spec as ReplicaSet["spec"]).replicas = newScale;
    draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), [DESIRED_REPLICAS_ANNOTATION]: desiredAnnotation };
    if (newScale === 0) delete draft.metadata.annotations[SCALE_DOWN_DEADLINE_ANNOTATION];
  }) as ReplicaSet;
  ctx.replaceReplicaSet(updated);
  if (current === newScale) return false;
  ctx.event(
    "Normal",
    Reason.ScalingReplicaSet,
    Message.scaling(current < newScale ? "up" : "down", rs.metadata.name, revisionOf(rs), current, newScale),
  );
  return true;
}

/** Annotates a ReplicaSet to be scaled down after `delaySeconds` of simulated time; returns the seconds left. */
export function scaleDownDeadline(ctx: ReconcileContext, rs: ReplicaSet, delaySeconds: number): number {
  const existing = rs.metadata.annotations?.[SCALE_DOWN_DEADLINE_ANNOTATION];
  if (!existing) {
    const deadlineMs = ctx.deps.clock.now() + ctx.deps.clock.realMs(delaySeconds);
    const iso = ctx.deps.clock.iso(deadlineMs);
    ctx.deps.precise.set(`${rs.metadata.uid}/deadline/${iso}`, deadlineMs);
    const updated = ctx.deps.client.update(T.replicaSets, rs.metadata.namespace, rs.metadata.name, (draft) => {
      draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), [SCALE_DOWN_DEADLINE_ANNOTATION]: iso };
    }) as ReplicaSet;
    ctx.replaceReplicaSet(updated);
    return delaySeconds;
  }
  const deadline = ctx.deps.precise.get(`${rs.metadata.uid}/deadline/${existing}`) ?? Date.parse(existing);
  return -ctx.deps.clock.simSecondsSince(deadline);
}

/** `removeScaleDownDeadlines`: the new and the stable ReplicaSet must not carry a deadline. */
export function removeScaleDownDeadlines(ctx: ReconcileContext): void {
  for (const rs of [ctx.newRS, ctx.stableRS]) {
    if (!rs?.metadata.annotations?.[SCALE_DOWN_DEADLINE_ANNOTATION]) continue;
    if (rs === ctx.newRS && ctx.pause.isAborted()) continue;
    const updated = ctx.deps.client.update(T.replicaSets, rs.metadata.namespace, rs.metadata.name, (draft) => {
      if (draft.metadata.annotations) delete draft.metadata.annotations[SCALE_DOWN_DEADLINE_ANNOTATION];
    }) as ReplicaSet;
    ctx.replaceReplicaSet(updated);
  }
}

/** `reconcileRevisionHistoryLimit`: deletes the oldest scaled-down ReplicaSets beyond the limit (default 10). */
export function reconcileRevisionHistoryLimit(ctx: ReconcileContext): void {
  const limit = ctx.ro.spec.revisionHistoryLimit ?? 10;
  const cleanable = ctx.otherRSs
    .filter((rs) => (rs.spec.replicas ?? 0) === 0 && (rs.status?.replicas ?? 0) === 0)
    .sort((a, b) => revisionOf(a) - revisionOf(b));
  const excess = ctx.otherRSs.length - limit;
  for (const rs of cleanable.slice(0, Math.max(excess, 0))) {
    ctx.deps.client.delete(T.replicaSets, rs.metadata.namespace, rs.metadata.name);
    ctx.allRSs = ctx.allRSs.filter((x) => x !== rs);
    ctx.otherRSs = ctx.otherRSs.filter((x) => x !== rs);
  }
}
