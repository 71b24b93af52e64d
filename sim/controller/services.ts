import { POD_HASH_LABEL, podHashOf, type ReconcileContext } from "./context";
import { T } from "./resource-types";
import type { ReplicaSet } from "./types";

const MANAGED_BY = "argo-rollouts.argoproj.io/managed-by-rollouts";

/**
 * Points a Service's selector at a pod-template hash (`switchServiceSelector`), with upstream's SwitchService event;
 * no-op when absent or already there.
 */
export function ensureServiceTarget(ctx: ReconcileContext, service: string | undefined, hash: string | undefined): void {
  if (!service || !hash) return;
  const ns = ctx.ro.metadata.namespace;
  const svc = ctx.deps.store.tryGet(T.services, ns, service);
  if (!svc) return;
  const spec = (svc.spec ?? {}) as { selector?: Record<string, string> };
  const previous = spec.selector?.[POD_HASH_LABEL] ?? "";
  if (previous === hash && svc.metadata.annotations?.[MANAGED_BY] === ctx.ro.metadata.name) return;
  ctx.deps.client.update(T.services, ns, service, (draft) => {
    const draftSpec = (draft.spec ?? {}) as { selector?: Record<string, string> };
    draftSpec.selector = { ...(draftSpec.selector ?? {}), [POD_HASH_LABEL]: hash };
    draft.spec = draftSpec;
    draft.metadata.annotations = { ...(draft.metadata.annotations ?? {}), [MANAGED_BY]: ctx.ro.metadata.name };
  });
  ctx.event("Normal", "SwitchService", `Switched selector for service '${service}' from '${previous}' to '${hash}'`);
}

/** `IsReplicaSetAvailable`: every desired pod available (and at least one desired). */
function fullyAvailable(rs: ReplicaSet): boolean {
  const desired = rs.spec.replicas ?? 0;
  const available = rs.status?.availableReplicas ?? 0;
  return desired !== 0 && available !== 0 && desired <= available;
}

/**
 * `ensureSVCTargets`: points a canary's Service at a ReplicaSet, but not at nothing (no ReplicaSet yet, or none of its
 * pods available when `checkAvailability`), and adopts a Service the Rollout does not manage yet only once the
 * ReplicaSet is fully available.
 */
export function ensureSVCTargets(
  ctx: ReconcileContext,
  service: string | undefined,
  rs: ReplicaSet | undefined,
  checkAvailability: boolean,
): void {
  if (!rs || !service) return;
  const svc = ctx.deps.store.tryGet(T.services, ctx.ro.metadata.namespace, service);
  if (!svc) return;
  const current = ((svc.spec ?? {}) as { selector?: Record<string, string> }).selector?.[POD_HASH_LABEL] ?? "";
  if (current === podHashOf(rs)) return;
  if (!svc.metadata.annotations?.[MANAGED_BY] && checkAvailability && !fullyAvailable(rs)) return;
  if (checkAvailability && (rs.status?.availableReplicas ?? 0) === 0) return;
  ensureServiceTarget(ctx, service, podHashOf(rs));
}
