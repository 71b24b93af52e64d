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

/** What one rollout contributes to the queue, or null; rows are immutable, so it is worked out once per row. */
function entryOf(rollout: RolloutSummary): { entry: AttentionEntry; rank: number; waiting: number } | null {
  const reasons: AttentionEntry["reasons"] = rollout.attention.map((a) => ({ code: a.code, message: a.message }));
  if (rollout.parseError) reasons.unshift({ code: "ParseError", message: rollout.parseError });
  if (rollout.pause && !rollout.pause.indefinite && !reasons.some((r) => r.code === "AwaitingPromotion")) {
    reasons.push({ code: "TimedPause", message: `Paused (${rollout.pause.reason}); continues on its own` });
  }
  if (reasons.length === 0) return null;
  const severity = reasons.reduce<AttentionSeverity>(
    (worst, r) => (SEVERITY_RANK[severityOf(r.code)] < SEVERITY_RANK[worst] ? severityOf(r.code) : worst),
    "info",
  );
  return { entry: { rollout, severity, reasons }, rank: SEVERITY_RANK[severity], waiting: waitingSince(rollout) };
}

const entries = new WeakMap<RolloutSummary, ReturnType<typeof entryOf>>();

function cachedEntryOf(rollout: RolloutSummary): ReturnType<typeof entryOf> {
  let entry = entries.get(rollout);
  if (entry === undefined) {
    entry = entryOf(rollout);
    entries.set(rollout, entry);
  }
  return entry;
}

/**
 * The "needs attention" queue: every rollout the server flagged, every unreadable one, and every paused one
 * (timed pauses last, as information with their countdown). Most severe first, then the longest-waiting.
 */
export function buildAttentionQueue(rows: RolloutSummary[]): AttentionEntry[] {
  const found: Array<NonNullable<ReturnType<typeof entryOf>>> = [];
  for (const rollout of rows) {
    const entry = cachedEntryOf(rollout);
    if (entry) found.push(entry);
  }
  found.sort((a, b) => a.rank - b.rank || a.waiting - b.waiting || (a.entry.rollout.key < b.entry.rollout.key ? -1 : a.entry.rollout.key > b.entry.rollout.key ? 1 : 0));
  return found.map((f) => f.entry);
}

function waitingSince(r: RolloutSummary): number {
  const at = Date.parse(r.pause?.startedAt ?? r.lastChangedAt);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}
