import type { AuditEntryView } from "./schema";

const AUDIT_CSV_COLUMNS = [
  "id",
  "at",
  "user",
  "groups",
  "cluster",
  "namespace",
  "rollout",
  "action",
  "outcome",
  "message",
  "revision",
  "stepIndex",
  "totalSteps",
  "phase",
  "requestedPercent",
  "canaryPercent",
  "stablePercent",
  "resourceVersion",
  "requestId",
  "clientAddress",
] as const;

/**
 * RFC 4180 quoting, plus a leading `'` on text that a spreadsheet would run as a formula (=, +, -, @, tab, CR):
 * user names and error messages come from outside.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function auditEntriesToCsv(entries: readonly AuditEntryView[]): string {
  const rows = entries.map((e) =>
    [
      e.id,
      e.at,
      e.user,
      e.groups.join(" "),
      e.cluster,
      e.namespace,
      e.rollout,
      e.action,
      e.outcome,
      e.message,
      e.before?.revision,
      e.before?.stepIndex,
      e.before?.totalSteps,
      e.before?.phase,
      e.before?.requestedPercent,
      e.before?.canaryPercent,
      e.before?.stablePercent,
      e.before?.resourceVersion,
      e.requestId,
      e.clientAddress,
    ]
      .map(csvCell)
      .join(","),
  );
  return [AUDIT_CSV_COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}
