import { formatStepPosition } from "@/lib/rollouts/step-position";
import type { AuditAfter, AuditBefore } from "./schema";

const percent = (value: number) => `${Math.round(value * 10) / 10} %`;

/** The Rollout before an action, as the audit page shows it: "rev 2 · step 2 of 4 · canary 20 % · Paused". */
export function formatAuditBefore(before: AuditBefore | null): string {
  if (!before) return "—";
  const parts: string[] = [];
  if (before.revision !== null) parts.push(`rev ${before.revision}`);
  if (before.totalSteps > 0) parts.push(formatStepPosition({ index: before.stepIndex, total: before.totalSteps }));
  const weight = before.canaryPercent ?? before.requestedPercent;
  if (weight !== null) parts.push(`canary ${percent(weight)}`);
  if (before.phase) parts.push(before.phase);
  return parts.join(" · ") || "—";
}

/**
 * The Rollout right after an applied action (its PATCH response): "step 2 of 4 · canary 20 % · Progressing · unpaused".
 * The step count comes from the state before, when it was recorded.
 */
export function formatAuditAfter(after: AuditAfter, totalSteps: number | null): string {
  const parts: string[] = [];
  if (after.stepIndex !== null)
    parts.push(totalSteps ? formatStepPosition({ index: after.stepIndex, total: totalSteps }) : `step ${after.stepIndex + 1}`);
  const weight = after.canaryPercent ?? after.requestedPercent;
  if (weight !== null) parts.push(`canary ${percent(weight)}`);
  if (after.phase) parts.push(after.phase);
  parts.push(after.aborted ? "aborted" : after.paused ? "paused" : "unpaused");
  return parts.join(" · ");
}
