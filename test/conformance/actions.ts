import { planActionRequests, planPromotePatches } from "@/lib/actions/plan";
import type { Kube, KubeObject } from "./kube";
import { readRollout } from "./snapshot";

/**
 * The user actions of a scenario, sending exactly what upstream's `kubectl argo rollouts` sends (the patches come
 * from lib/actions/plan.ts, which mirrors the CLI): promote [--full], abort, retry, restart, undo, set image.
 */

export async function promote(kube: Kube, ns: string, name: string, full = false): Promise<void> {
  await kube.sendPatches(ns, name, planPromotePatches(await readRollout(kube, ns, name), full));
}

export async function simpleAction(kube: Kube, ns: string, name: string, action: "abort" | "retry" | "restart"): Promise<void> {
  const plan = planActionRequests(action, {}, new Date());
  if (plan.needsGet) throw new Error(`${action} unexpectedly needs a GET`);
  await kube.sendPatches(ns, name, plan.requests);
}

/** `kubectl argo rollouts set image <rollout> <container>=<image>` for the first container. */
export async function setImage(kube: Kube, ns: string, name: string, image: string): Promise<void> {
  await kube.patchRollout(ns, name, [{ op: "replace", path: "/spec/template/spec/containers/0/image", value: image }], { json: true });
}

interface ReplicaSetJson extends KubeObject {
  spec: { template: { metadata?: { labels?: Record<string, string> } } };
}

/** `kubectl argo rollouts undo` (no --to-revision): the second-newest revision's template, JSON-patched back. */
export async function undo(kube: Kube, ns: string, name: string): Promise<void> {
  const ro = await readRollout(kube, ns, name);
  const owned = (await kube.list<ReplicaSetJson>("apps/v1", "ReplicaSet", ns)).filter((rs) =>
    rs.metadata.ownerReferences?.some((o) => o.uid === ro.metadata.uid),
  );
  const byRevision = owned
    .map((rs) => ({ rs, revision: Number(rs.metadata.annotations?.["rollout.argoproj.io/revision"]) }))
    .filter((r) => Number.isFinite(r.revision))
    .sort((a, b) => b.revision - a.revision);
  const previous = byRevision[1]?.rs;
  if (!previous) throw new Error(`no revision to undo to for ${name}`);
  const template = structuredClone(previous.spec.template);
  delete template.metadata?.labels?.["rollouts-pod-template-hash"];
  await kube.patchRollout(ns, name, [{ op: "replace", path: "/spec/template", value: template }], { json: true });
}
