import type { AnalysisRunView } from "./detail-types";
import { parseAnalysisRun } from "./analysis-run-schema";

const KIND_LABEL = "rollout-type";

function runKind(labels: Record<string, string> | undefined): AnalysisRunView["kind"] {
  switch (labels?.[KIND_LABEL]) {
    case "Step":
      return "step";
    case "Background":
      return "background";
    case "PrePromotion":
      return "prePromotion";
    case "PostPromotion":
      return "postPromotion";
    default:
      return "unknown";
  }
}

/** The Rollout object an owned resource belongs to: its namespace and uid (Kubernetes ownership is by uid, not name). */
export interface OwnerIdentity {
  namespace: string;
  uid: string | null;
}

/**
 * Whether `metadata` belongs to `owner`: in its namespace, with an ownerReference to its uid (`metav1.IsControlledBy`
 * without the controller flag, as upstream's `GetRolloutAnalysisRuns` filters). A Rollout whose uid is unknown owns
 * nothing: a same-named Rollout of another namespace, or a deleted predecessor, must never lend it its objects.
 */
export function isOwnedByUid(metadata: { namespace?: string; ownerReferences?: unknown }, owner: OwnerIdentity): boolean {
  if (owner.uid === null || (metadata.namespace ?? "") !== owner.namespace) return false;
  const refs = Array.isArray(metadata.ownerReferences) ? (metadata.ownerReferences as Array<{ uid?: unknown }>) : [];
  return refs.some((ref) => ref.uid === owner.uid);
}

/** AnalysisRuns owned by the Rollout object (by namespace and uid), newest first, as the detail page shows them. */
export function toAnalysisRunViews(objects: readonly unknown[], owner: OwnerIdentity): AnalysisRunView[] {
  const views: AnalysisRunView[] = [];
  for (const obj of objects) {
    const parsed = parseAnalysisRun(obj);
    if (!parsed.ok) continue;
    const run = parsed.analysisRun;
    if (!isOwnedByUid(run.metadata, owner)) continue;
    const { labels, annotations } = run.metadata;
    views.push({
      name: run.metadata.name,
      phase: run.status?.phase ?? "Pending",
      message: run.status?.message ?? null,
      startedAt: run.status?.startedAt ?? run.metadata.creationTimestamp ?? null,
      podTemplateHash: labels?.["rollouts-pod-template-hash"] ?? null,
      revision: annotations?.["rollout.argoproj.io/revision"] ?? null,
      kind: runKind(labels),
      metrics: (run.status?.metricResults ?? []).map((m) => ({
        name: m.name,
        phase: m.phase,
        message: m.message ?? null,
        successful: m.successful ?? 0,
        failed: m.failed ?? 0,
        inconclusive: m.inconclusive ?? 0,
        measurements: (m.measurements ?? []).slice(-20).map((x) => ({
          value: x.value ?? null,
          phase: x.phase,
          startedAt: x.startedAt ?? null,
          finishedAt: x.finishedAt ?? null,
        })),
      })),
    });
  }
  return views.sort((a, b) => (b.startedAt ?? "").localeCompare(a.startedAt ?? ""));
}
