import { z } from "zod";
import { ACTIVITY_KINDS, type ActivityItem } from "@/lib/activity/timeline";
import { apiPath, queryString } from "./paths";

/*
 * `GET /api/activity?…`         → ActivityPage: every change of every Rollout the user may read, newest first
 * `GET /api/activity/export?…`  → the same as a CSV download
 */

export type { ActivityActor, ActivityItem, ActivityKind } from "@/lib/activity/timeline";
export { ACTIVITY_KINDS };

/** The time windows the page offers, in minutes. */
export const ACTIVITY_WINDOWS = { "15m": 15, "1h": 60, "6h": 360, "24h": 1440 } as const;
export type ActivityWindow = keyof typeof ACTIVITY_WINDOWS;

const optionalText = z
  .string()
  .trim()
  .max(253)
  .optional()
  .transform((v) => (v === "" ? undefined : v));

export const ActivityQuery = z.object({
  window: z.enum(Object.keys(ACTIVITY_WINDOWS) as [ActivityWindow, ...ActivityWindow[]]).default("1h"),
  cluster: optionalText,
  namespace: optionalText,
  kind: z
    .union([z.enum(ACTIVITY_KINDS), z.literal("")])
    .optional()
    .transform((v) => (v === "" ? undefined : v)),
});
export type ActivityQuery = z.infer<typeof ActivityQuery>;
export type ActivityFilters = z.input<typeof ActivityQuery>;

export interface ActivityPage {
  items: ActivityItem[];
  /** The window read (ISO). */
  from: string;
  to: string;
  /** More changes happened in the window than one page holds: the oldest are left out. */
  truncated: boolean;
}

export function activityPath(filters: ActivityFilters) {
  return apiPath("GET /api/activity", `/api/activity${queryString({ ...filters })}`);
}

export function activityExportPath(filters: ActivityFilters): string {
  return `/api/activity/export${queryString({ ...filters })}`;
}
