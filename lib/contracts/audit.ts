import { z } from "zod";
import { AUDIT_EXPORT_FORMATS, AuditQuery, type AuditExportFormat, type AuditQueryInput } from "@/lib/audit/schema";
import { apiPath, queryString } from "./paths";

/*
 * `GET /api/audit?…`         → AuditPage (newest first, 100 a page; `before` is the cursor)
 * `GET /api/audit/export?…`  → the matching entries as a CSV or JSON download
 */

export { AuditQuery };
export type { AuditEntryView, AuditPage, AuditQueryInput } from "@/lib/audit/schema";

export const AuditExportQuery = AuditQuery.extend({ format: z.enum(AUDIT_EXPORT_FORMATS).default("csv") });

/** The filters a person sets; paging is the hook's. */
export type AuditFilters = Omit<AuditQueryInput, "limit" | "before">;

export function auditPath(filters: AuditFilters, before: number | null = null) {
  return apiPath("GET /api/audit", `/api/audit${queryString({ ...filters, before })}`);
}

export function auditExportPath(filters: AuditFilters, format: AuditExportFormat): string {
  return `/api/audit/export${queryString({ ...filters, format })}`;
}
