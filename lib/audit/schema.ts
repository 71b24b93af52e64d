import { z } from "zod";

/**
 * pending: about to change the cluster (the intent, written before any request is sent); done: the requests went
 * through; denied: RBAC or a role said no; stale: the Rollout moved on since the user looked; conflict: the action
 * does not apply in the Rollout's state (or the API server answered 409); error: anything else, an unreachable
 * cluster included; interrupted: still pending when its server stopped, so whether it went through is unknown.
 */
export const AUDIT_OUTCOMES = ["pending", "done", "denied", "stale", "conflict", "error", "interrupted"] as const;
export const AuditOutcome = z.enum(AUDIT_OUTCOMES);
export type AuditOutcome = z.infer<typeof AuditOutcome>;

/** The Rollout as the server saw it just before acting. */
export const AuditBefore = z.object({
  revision: z.number().nullable(),
  stepIndex: z.number().nullable(),
  totalSteps: z.number(),
  phase: z.string().nullable(),
  requestedPercent: z.number().nullable(),
  canaryPercent: z.number().nullable(),
  stablePercent: z.number().nullable(),
  resourceVersion: z.string().nullable(),
});
export type AuditBefore = z.infer<typeof AuditBefore>;

/** The Rollout as the cluster answered an applied action (its PATCH response): before the controller reconciled it. */
export const AuditAfter = z.object({
  phase: z.string().nullable(),
  stepIndex: z.number().nullable(),
  paused: z.boolean(),
  aborted: z.boolean(),
  requestedPercent: z.number().nullable(),
  canaryPercent: z.number().nullable(),
  resourceVersion: z.string().nullable(),
});
export type AuditAfter = z.infer<typeof AuditAfter>;

/** One attempted action, as the audit log stores it. */
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

export interface AuditEntryView {
  id: number;
  at: string;
  user: string;
  groups: string[];
  cluster: string;
  namespace: string;
  rollout: string;
  action: string;
  before: AuditBefore | null;
  /** Recorded when the action was applied (outcome done with a PATCH answered); null otherwise. */
  after: AuditAfter | null;
  outcome: string;
  message: string | null;
  requestId: string;
  clientAddress: string | null;
}

export interface AuditPage {
  entries: AuditEntryView[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextCursor: number | null;
}

const optionalText = z
  .string()
  .trim()
  .max(253)
  .optional()
  .transform((v) => (v === "" ? undefined : v));

/** Filters of the audit page and its exports (query string). */
export const AuditQuery = z.object({
  cluster: optionalText,
  namespace: optionalText,
  rollout: optionalText,
  user: optionalText,
  action: optionalText,
  outcome: z
    .union([AuditOutcome, z.literal("")])
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  before: z.coerce.number().int().min(1).optional(),
});
export type AuditQuery = z.infer<typeof AuditQuery>;
export type AuditQueryInput = z.input<typeof AuditQuery>;

export const AUDIT_EXPORT_FORMATS = ["csv", "json"] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
