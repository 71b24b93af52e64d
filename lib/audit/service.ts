import "server-only";
import type { Prisma } from "@/lib/db/generated/client";
import { getDb } from "@/lib/db/client";
import type { TimelineMarker } from "@/lib/rollouts/detail-types";
import { auditEntriesToCsv } from "./csv";
import { AuditBefore, type AuditEntryView, type AuditExportFormat, type AuditOutcome, type AuditPage, type AuditQuery } from "./schema";

export interface AuditRecord {
  user: string;
  groups: readonly string[];
  cluster: string;
  namespace: string;
  rollout: string;
  action: string;
  before: AuditBefore | null;
  outcome: AuditOutcome;
  message: string | null;
  requestId: string;
  clientAddress: string | null;
}

const MAX_MESSAGE = 2_000;
const MAX_EXPORT_ROWS = 50_000;

/**
 * Appends one attempted action. The log is append-only: nothing in the app updates or deletes these rows.
 * A failed write is logged with the whole entry so it is not lost, and rethrown.
 */
export async function appendAuditEntry(record: AuditRecord): Promise<void> {
  const data = {
    user: record.user,
    groups: JSON.stringify(record.groups),
    cluster: record.cluster,
    namespace: record.namespace,
    rollout: record.rollout,
    action: record.action,
    before: JSON.stringify(record.before),
    outcome: record.outcome,
    message: record.message === null ? null : record.message.slice(0, MAX_MESSAGE),
    requestId: record.requestId,
    clientAddress: record.clientAddress,
  };
  try {
    await getDb().auditEntry.create({ data });
  } catch (err) {
    console.error(`[${record.requestId}] could not write the audit entry ${JSON.stringify(data)}`, err);
    throw err;
  }
}

type AuditRow = Awaited<ReturnType<ReturnType<typeof getDb>["auditEntry"]["findFirstOrThrow"]>>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toView(row: AuditRow): AuditEntryView {
  const groups = parseJson(row.groups);
  const before = AuditBefore.safeParse(parseJson(row.before));
  return {
    id: row.id,
    at: row.at.toISOString(),
    user: row.user,
    groups: Array.isArray(groups) ? groups.filter((g): g is string => typeof g === "string") : [],
    cluster: row.cluster,
    namespace: row.namespace,
    rollout: row.rollout,
    action: row.action,
    before: before.success ? before.data : null,
    outcome: row.outcome,
    message: row.message,
    requestId: row.requestId,
    clientAddress: row.clientAddress,
  };
}

function toWhere(query: AuditQuery): Prisma.AuditEntryWhereInput {
  const at: Prisma.DateTimeFilter = {};
  if (query.from) at.gte = new Date(query.from);
  if (query.to) at.lte = new Date(query.to);
  return {
    ...(query.cluster ? { cluster: query.cluster } : {}),
    ...(query.namespace ? { namespace: query.namespace } : {}),
    ...(query.rollout ? { rollout: query.rollout } : {}),
    ...(query.user ? { user: { contains: query.user } } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.from || query.to ? { at } : {}),
    ...(query.before ? { id: { lt: query.before } } : {}),
  };
}

/** Newest first, one page at a time (`before` is the id cursor). */
export async function listAuditEntries(query: AuditQuery): Promise<AuditPage> {
  const rows = await getDb().auditEntry.findMany({ where: toWhere(query), orderBy: { id: "desc" }, take: query.limit + 1 });
  const entries = rows.slice(0, query.limit).map(toView);
  return { entries, nextCursor: rows.length > query.limit ? entries[entries.length - 1].id : null };
}

export interface AuditExport {
  body: string;
  contentType: string;
  filename: string;
}

/** Every entry matching the filters (newest first, at most 50 000) as CSV or JSON. */
export async function exportAuditEntries(query: AuditQuery, format: AuditExportFormat, now = new Date()): Promise<AuditExport> {
  const rows = await getDb().auditEntry.findMany({ where: toWhere({ ...query, before: undefined }), orderBy: { id: "desc" }, take: MAX_EXPORT_ROWS });
  const entries = rows.map(toView);
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return format === "csv"
    ? { body: auditEntriesToCsv(entries), contentType: "text/csv; charset=utf-8", filename: `rollscope-audit-${stamp}.csv` }
    : { body: JSON.stringify(entries, null, 2), contentType: "application/json; charset=utf-8", filename: `rollscope-audit-${stamp}.json` };
}

/** Chart markers for the actions that went through on this Rollout since `from`. */
export async function listActionMarkers(cluster: string, namespace: string, rollout: string, from: Date): Promise<TimelineMarker[]> {
  const rows = await getDb().auditEntry.findMany({
    where: { cluster, namespace, rollout, outcome: "done", at: { gte: from } },
    orderBy: { at: "asc" },
    take: 500,
  });
  return rows.map((row) => ({ at: row.at.toISOString(), kind: "action", label: `${row.action} by ${row.user}`, actor: row.user }));
}
