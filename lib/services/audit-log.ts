import "server-only";
import { auditEntriesToCsv } from "@/lib/audit/csv";
import type { AuditAfter, AuditExportFormat, AuditOutcome, AuditPage, AuditQuery, AuditRecord } from "@/lib/audit/schema";
import type { TimelineMarker } from "@/lib/rollouts/detail-types";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { AppContext } from "@/lib/server/app-context";

const MAX_MESSAGE = 2_000;
const MAX_EXPORT_ROWS = 50_000;
const MAX_MARKERS = 500;

function clip(message: string | null): string | null {
  return message === null ? null : message.slice(0, MAX_MESSAGE);
}

/**
 * Appends one attempted action (or, with outcome `pending`, the intent of one about to change the cluster) and
 * returns its id. Nothing deletes these rows. A failed write is logged with the whole entry so it is not lost,
 * and rethrown.
 */
export async function appendAuditEntry(app: AppContext, record: AuditRecord): Promise<number> {
  const entry = { ...record, message: clip(record.message) };
  try {
    return await app.repos.auditEntries.append(entry);
  } catch (err) {
    console.error(`[${record.requestId}] could not write the audit entry ${JSON.stringify(entry)}`, err);
    throw err;
  }
}

/** The outcome of an action whose intent is audit entry `id`, with the state an applied action left (or null). */
export interface AuditSettlement {
  id: number;
  requestId: string;
  outcome: Exclude<AuditOutcome, "pending">;
  message: string | null;
  after: AuditAfter | null;
}

/** Writes the outcome of an action whose intent is entry `id`; a failed write is logged with the outcome, and rethrown. */
export async function settleAuditEntry(app: AppContext, { id, requestId, outcome, message, after }: AuditSettlement): Promise<void> {
  try {
    await app.repos.auditEntries.settle(id, outcome, clip(message), after);
  } catch (err) {
    console.error(
      `[${requestId}] could not write the outcome ${JSON.stringify({ id, outcome, message, after })} of audit entry ${id}`,
      err,
    );
    throw err;
  }
}

/** Newest first, one page at a time (`before` is the id cursor). */
export async function listAuditEntries(app: AppContext, query: AuditQuery): Promise<AuditPage> {
  const rows = await app.repos.auditEntries.list(query, query.limit + 1);
  const entries = rows.slice(0, query.limit);
  return { entries, nextCursor: rows.length > query.limit ? entries[entries.length - 1].id : null };
}

export interface AuditExport {
  body: string;
  contentType: string;
  filename: string;
}

/** Every entry matching the filters (newest first, at most 50 000) as CSV or JSON. */
export async function exportAuditEntries(
  app: AppContext,
  { query, format }: { query: AuditQuery; format: AuditExportFormat },
): Promise<AuditExport> {
  const entries = await app.repos.auditEntries.list({ ...query, before: undefined }, MAX_EXPORT_ROWS);
  const stamp = new Date(app.now()).toISOString().replace(/[:.]/g, "-");
  return format === "csv"
    ? { body: auditEntriesToCsv(entries), contentType: "text/csv; charset=utf-8", filename: `rollscope-audit-${stamp}.csv` }
    : { body: JSON.stringify(entries, null, 2), contentType: "application/json; charset=utf-8", filename: `rollscope-audit-${stamp}.json` };
}

/** Chart markers for the actions that went through on this Rollout since `from`. */
export async function listActionMarkers(app: AppContext, { from, ...rollout }: RolloutRef & { from: Date }): Promise<TimelineMarker[]> {
  const done = await app.repos.auditEntries.listDone(rollout, from, MAX_MARKERS);
  return done.map((row) => ({ at: row.at.toISOString(), kind: "action", label: `${row.action} by ${row.user}`, actor: row.user }));
}
