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

/** AnalysisRuns owned by the Rollout, newest first, as the detail page shows them. */
export function toAnalysisRunViews(objects: readonly unknown[], rolloutName: string): AnalysisRunView[] {
  const views: AnalysisRunView[] = [];
  for (const obj of objects) {
    const parsed = parseAnalysisRun(obj);
    if (!parsed.ok) continue;
    const run = parsed.analysisRun;
    const owners = (run.metadata.ownerReferences as Array<{ kind?: string; name?: string }> | undefined) ?? [];
    if (!owners.some((o) => o.kind === "Rollout" && o.name === rolloutName)) continue;
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
