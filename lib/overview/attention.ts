import type { RolloutSummary } from "./rollout-summary";
import { detailSectionHref } from "@/lib/rollouts/attention-signals";
import type { AttentionCode } from "@/lib/rollouts/view-model";

export type AttentionSeverity = "critical" | "warning" | "info";
export type AttentionItemCode = AttentionCode | "ParseError" | "TimedPause";

export interface AttentionEntry {
  rollout: RolloutSummary;
  severity: AttentionSeverity;
  /** `act`: someone has to do something; `wait`: it continues on its own (a timed pause), shown as information. */
  action: "act" | "wait";
  reasons: Array<{ code: AttentionItemCode; message: string; href?: string }>;
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
  NeedsResume: "warning",
  WeightNotVerified: "warning",
  PluginNotRegistered: "critical",
  ReconcileFailing: "critical",
  WarningEvent: "warning",
  ProgressDeadlineApproaching: "warning",
  NoProgress: "warning",
  TimedPause: "info",
};

const SEVERITY_RANK: Record<AttentionSeverity, number> = { critical: 0, warning: 1, info: 2 };

const ATTENTION_LABELS: Record<AttentionItemCode, string> = {
  Aborted: "Aborted",
  Degraded: "Degraded",
  ProgressDeadlineExceeded: "Deadline exceeded",
  AnalysisFailed: "Analysis failed",
  AnalysisError: "Analysis error",
  AnalysisInconclusive: "Analysis inconclusive",
  AwaitingPromotion: "Awaiting promotion",
  NeedsResume: "Needs Resume",
  WeightNotVerified: "Weight not verified",
  ParseError: "Unreadable",
  PluginNotRegistered: "Plugin not registered",
  ReconcileFailing: "Reconcile failing",
  WarningEvent: "Warning event",
  ProgressDeadlineApproaching: "Deadline approaching",
  NoProgress: "No progress",
  TimedPause: "Timed pause",
};

/** The detail page section that shows what a reason is about, for reasons that do not name their own finding. */
const SECTION: Partial<Record<AttentionItemCode, string>> = {
  Aborted: "conditions-title",
  Degraded: "conditions-title",
  ProgressDeadlineExceeded: "conditions-title",
  AnalysisFailed: "analysis-title",
  AnalysisError: "analysis-title",
  AnalysisInconclusive: "analysis-title",
  AwaitingPromotion: "steps-title",
  NeedsResume: "steps-title",
  TimedPause: "steps-title",
  WeightNotVerified: "weights-title",
};

/** Where a reason's finding is shown: its own link (a plugins page entry), else the detail page section. */
export function attentionHref(
  rollout: Pick<RolloutSummary, "cluster" | "namespace" | "name">,
  reason: { code: string; href?: string },
): string | null {
  if (reason.href) return reason.href;
  const section = SECTION[reason.code as AttentionItemCode];
  return section ? detailSectionHref(rollout.cluster, rollout.namespace, rollout.name, section) : null;
}

/** Unknown codes from a newer server still show, as warnings under their own name. */
function severityOf(code: string): AttentionSeverity {
  return SEVERITY[code as AttentionItemCode] ?? "warning";
}

export function attentionLabel(code: string): string {
  return ATTENTION_LABELS[code as AttentionItemCode] ?? code;
}

/** What one rollout contributes to the queue, or null; rows are immutable, so it is worked out once per row. */
function entryOf(rollout: RolloutSummary): { entry: AttentionEntry; rank: number; waiting: number } | null {
  const reasons: AttentionEntry["reasons"] = rollout.attention.map((a) => ({
    code: a.code,
    message: a.message,
    ...(a.href ? { href: a.href } : {}),
  }));
  if (rollout.parseError) reasons.unshift({ code: "ParseError", message: rollout.parseError });
  if (rollout.pause && !rollout.pause.indefinite && !reasons.some((r) => r.code === "AwaitingPromotion" || r.code === "NeedsResume")) {
    reasons.push({ code: "TimedPause", message: `Paused (${rollout.pause.reason}); continues on its own` });
  }
  if (reasons.length === 0) return null;
  const severity = reasons.reduce<AttentionSeverity>(
    (worst, r) => (SEVERITY_RANK[severityOf(r.code)] < SEVERITY_RANK[worst] ? severityOf(r.code) : worst),
    "info",
  );
  const action = reasons.every((r) => r.code === "TimedPause") ? "wait" : "act";
  // Critical: what broke most recently first; the rest: whoever has waited longest first.
  const waiting = severity === "critical" ? -changedAt(rollout) : waitingSince(rollout);
  return { entry: { rollout, severity, action, reasons }, rank: SEVERITY_RANK[severity], waiting };
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
 * (timed pauses last, as information with their countdown). Most severe first; critical ones newest first, the
 * others longest-waiting first.
 */
export function buildAttentionQueue(rows: readonly RolloutSummary[]): AttentionEntry[] {
  const found: Array<NonNullable<ReturnType<typeof entryOf>>> = [];
  for (const rollout of rows) {
    const entry = cachedEntryOf(rollout);
    if (entry) found.push(entry);
  }
  found.sort(compareEntries);
  return found.map((f) => f.entry);
}

/** How a rollout stands in the queue: its severity, or null when it needs no attention. */
export function attentionSeverityOf(rollout: RolloutSummary): AttentionSeverity | null {
  return cachedEntryOf(rollout)?.entry.severity ?? null;
}

/** The queue's order between two rollouts already in it (live patches keep it without rebuilding the queue). */
export function compareAttention(a: AttentionEntry, b: AttentionEntry): number {
  const x = cachedEntryOf(a.rollout);
  const y = cachedEntryOf(b.rollout);
  return x && y ? compareEntries(x, y) : 0;
}

function compareEntries(
  a: { rank: number; waiting: number; entry: AttentionEntry },
  b: { rank: number; waiting: number; entry: AttentionEntry },
): number {
  const ka = a.entry.rollout.key;
  const kb = b.entry.rollout.key;
  return a.rank - b.rank || a.waiting - b.waiting || (ka < kb ? -1 : ka > kb ? 1 : 0);
}

function waitingSince(r: RolloutSummary): number {
  const at = Date.parse(r.pause?.startedAt ?? r.lastChangedAt);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
}

function changedAt(r: RolloutSummary): number {
  const at = Date.parse(r.lastChangedAt);
  return Number.isNaN(at) ? Number.NEGATIVE_INFINITY : at;
}
