import type { RolloutSummary } from "@/lib/fleet/summary";
import type { AttentionCode } from "@/lib/rollouts/view-model";

export type AttentionSeverity = "critical" | "warning" | "info";
export type AttentionItemCode = AttentionCode | "ParseError" | "TimedPause";

export interface AttentionEntry {
  rollout: RolloutSummary;
  severity: AttentionSeverity;
  reasons: Array<{ code: AttentionItemCode; message: string }>;
}

const SEVERITY: Record<AttentionItemCode, AttentionSeverity> = {
  Aborted: "critical",
  Degraded: "critical",
  ProgressDeadlineExceeded: "critical",
  AnalysisFailed: "critical",
  AnalysisError: "critical",
  ParseError: "critical",
  AnalysisInconclusive: "warning",
  AwaitingPromotion: "warning",
  WeightNotVerified: "warning",
  TimedPause: "info",
};

const SEVERITY_RANK: Record<AttentionSeverity, number> = { critical: 0, warning: 1, info: 2 };

export const ATTENTION_LABELS: Record<AttentionItemCode, string> = {
  Aborted: "Aborted",
  Degraded: "Degraded",
  ProgressDeadlineExceeded: "Deadline exceeded",
  AnalysisFailed: "Analysis failed",
  AnalysisError: "Analysis error",
  AnalysisInconclusive: "Analysis inconclusive",
  AwaitingPromotion: "Awaiting promotion",
  WeightNotVerified: "Weight not verified",
  ParseError: "Unreadable",
  TimedPause: "Timed pause",
};

/** Unknown codes from a newer server still show, as warnings under their own name. */
function severityOf(code: string): AttentionSeverity {
  return SEVERITY[code as AttentionItemCode] ?? "warning";
}

export function attentionLabel(code: string): string {
  return ATTENTION_LABELS[code as AttentionItemCode] ?? code;
}

/**
 * The "needs attention" queue: every rollout the server flagged, every unreadable one, and every paused one
 * (timed pauses last, as information with their countdown). Most severe first, then the longest-waiting.
 */
export function buildAttentionQueue(rows: RolloutSummary[]): AttentionEntry[] {
  const entries: AttentionEntry[] = [];
  for (const rollout of rows) {
    const reasons: AttentionEntry["reasons"] = rollout.attention.map((a) => ({ code: a.code, message: a.message }));
    if (rollout.parseError) reasons.unshift({ code: "ParseError", message: rollout.parseError });
    if (rollout.pause && !rollout.pause.indefinite && !reasons.some((r) => r.code === "AwaitingPromotion")) {
      reasons.push({ code: "TimedPause", message: `Paused (${rollout.pause.reason}); continues on its own` });
    }
    if (reasons.length === 0) continue;
    const severity = reasons.reduce<AttentionSeverity>(
      (worst, r) => (SEVERITY_RANK[severityOf(r.code)] < SEVERITY_RANK[worst] ? severityOf(r.code) : worst),
      "info",
    );
    entries.push({ rollout, severity, reasons });
  }
  return entries.sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      waitingSince(a.rollout) - waitingSince(b.rollout) ||
      a.rollout.key.localeCompare(b.rollout.key),
  );
}

function waitingSince(r: RolloutSummary): number {
  const at = Date.parse(r.pause?.startedAt ?? r.lastChangedAt);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}
