import { POD_HASH_LABEL, type ReconcileContext } from "./context";
import { T } from "./resource-types";

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
