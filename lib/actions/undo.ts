import type { ReplicaSetResource } from "@/lib/rollouts/workload-schema";

/*
 * `kubectl argo rollouts undo [--to-revision N]` (pkg/kubectl-argo-rollouts/cmd/undo/undo.go, v1.9.1): GET the
 * Rollout, LIST its ReplicaSets by `spec.selector` keeping those it controls, pick the revision (default: the
 * previous one), and unless the Rollout's template already matches it, send one JSON Patch
 * `[{"op":"replace","path":"/spec/template","value":<the ReplicaSet's template without rollouts-pod-template-hash>}]`.
 */

const REVISION_ANNOTATION = "rollout.argoproj.io/revision";
const POD_TEMPLATE_HASH_LABEL = "rollouts-pod-template-hash";

export interface JsonPatchOperation {
  readonly op: "replace";
  readonly path: "/spec/template";
  readonly value: unknown;
}

/** The requests undo sent, beside the GET: the LIST of ReplicaSets and the JSON Patch (when one was needed). */
export type UndoSentRequest =
  | { readonly kind: "list"; readonly resource: "replicasets"; readonly labelSelector: string }
  | { readonly kind: "json-patch"; readonly target: "main"; readonly body: readonly JsonPatchOperation[]; readonly outcome: "ok" };

export type UndoDecision =
  | { readonly kind: "patch"; readonly revision: number; readonly patch: readonly JsonPatchOperation[] }
  | { readonly kind: "skip"; readonly revision: number; readonly message: string }
  | { readonly kind: "error"; readonly message: string };

interface RolloutForUndo {
  metadata: { name: string; uid?: string };
  spec?: { template?: unknown; workloadRef?: unknown };
}

/** `revision()`: the annotation as an integer, 0 when absent, null when it does not parse (upstream skips those). */
function revisionOf(rs: ReplicaSetResource): number | null {
  const value = rs.metadata.annotations?.[REVISION_ANNOTATION];
  if (value === undefined) return 0;
  return /^[+-]?\d+$/.test(value) ? Number(value) : null;
}

/** `metav1.IsControlledBy`: an ownerReference with controller=true and the Rollout's UID. */
function isControlledBy(rs: ReplicaSetResource, uid: string | undefined): boolean {
  return uid !== undefined && (rs.metadata.ownerReferences ?? []).some((ref) => ref.controller === true && ref.uid === uid);
}

/** `rolloutRevision`: the ReplicaSet of `toRevision`, or for 0 the second-newest revision. */
function pickUndoReplicaSet(
  rollout: RolloutForUndo,
  replicaSets: readonly ReplicaSetResource[],
  toRevision: number,
): { rs: ReplicaSetResource } | { error: string } {
  let latest: { rs: ReplicaSetResource; revision: number } | null = null;
  let previous: { rs: ReplicaSetResource; revision: number } | null = null;
  for (const rs of replicaSets.filter((r) => isControlledBy(r, rollout.metadata.uid))) {
    const revision = revisionOf(rs);
    if (revision === null) continue;
    if (toRevision !== 0) {
      if (revision === toRevision) return { rs };
      continue;
    }
    if (latest === null || latest.revision < revision) {
      previous = latest;
      latest = { rs, revision };
    } else if (previous === null || previous.revision < revision) {
      previous = { rs, revision };
    }
  }
  if (toRevision > 0) return { error: `unable to find specified revision ${toRevision} in history` };
  return previous ? { rs: previous.rs } : { error: `no revision found for rollout "${rollout.metadata.name}"` };
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === "string" || Array.isArray(value)) return value.length === 0;
  return typeof value === "object" && Object.keys(value).length === 0;
}

/** `apiequality.Semantic.DeepDerivative(a, b)` on JSON: what `a` leaves unset or empty is ignored. */
export function isDerivative(a: unknown, b: unknown): boolean {
  if (isEmpty(a)) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => isDerivative(item, b[i]));
  if (typeof a === "object") {
    if (typeof b !== "object" || b === null || Array.isArray(b)) return false;
    const other = b as Record<string, unknown>;
    return Object.entries(a as Record<string, unknown>).every(([key, value]) => isDerivative(value, other[key]));
  }
  return a === b;
}

function withoutHashLabel(template: unknown): Record<string, unknown> {
  const copy = structuredClone((template ?? {}) as Record<string, unknown>);
  const labels = (copy.metadata as { labels?: Record<string, string> } | undefined)?.labels;
  if (labels) delete labels[POD_TEMPLATE_HASH_LABEL];
  return copy;
}

/** What `RunUndoRollout` does once it has the Rollout and its ReplicaSets. */
export function decideUndo(rollout: RolloutForUndo, replicaSets: readonly ReplicaSetResource[], toRevision: number): UndoDecision {
  if (rollout.spec?.workloadRef !== undefined)
    return { kind: "error", message: "undo of a Rollout with a workloadRef is not supported by Rollscope" };
  const picked = pickUndoReplicaSet(rollout, replicaSets, toRevision);
  if (!("rs" in picked)) return { kind: "error", message: picked.error };
  const revision = revisionOf(picked.rs) ?? 0;
  const template = withoutHashLabel(picked.rs.spec?.template);
  if (isDerivative(withoutHashLabel(rollout.spec?.template), template)) {
    return { kind: "skip", revision, message: `skipped rollback (current template already matches revision ${toRevision})` };
  }
  return { kind: "patch", revision, patch: [{ op: "replace", path: "/spec/template", value: template }] };
}
