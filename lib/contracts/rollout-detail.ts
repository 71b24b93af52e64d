import { z } from "zod";
import { HISTORY_RANGES, type HistoryRange, type MeasuredTraffic, type RolloutDetail } from "@/lib/rollouts/detail-types";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { apiPath, queryString, rolloutPath } from "./paths";

/*
 * `GET /api/clusters/{c}/rollouts/{ns}/{name}`          → RolloutDetail (live view + events, analysis runs, revisions)
 * `GET …/history?range=`                               → RolloutHistory (recorded weights and markers)
 * `GET …/measured-traffic?range=`                      → MeasuredTrafficResponse (Prometheus; slower, on its own)
 */

export type {
  AnalysisRunView,
  EventView,
  HistoryRange,
  MeasuredTraffic,
  RevisionView,
  RolloutDetail,
  RolloutHistory,
  TimelineMarker,
  WeightPoint,
} from "@/lib/rollouts/detail-types";
export type { FleetRollout } from "@/lib/rollouts/view-model";

/** The path parameters of every per-Rollout route. */
export const RolloutParams = z.strictObject({ cluster: z.string().min(1), namespace: z.string().min(1), name: z.string().min(1) });
export type RolloutParams = z.infer<typeof RolloutParams>;

export const HistoryQuery = z.object({ range: z.enum(HISTORY_RANGES).default("1h") });
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export interface MeasuredTrafficResponse {
  /** null when the Rollout has no measured-traffic source (no Prometheus, or no template for its router). */
  measured: MeasuredTraffic | null;
  /** The window the points cover (ISO). */
  from: string;
  to: string;
}

export { rolloutPath };

export function rolloutHistoryPath(rollout: RolloutRef, range: HistoryRange) {
  return apiPath(
    "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/history",
    `${rolloutPath(rollout)}/history${queryString({ range })}`,
  );
}

export function rolloutMeasuredTrafficPath(rollout: RolloutRef, range: HistoryRange) {
  return apiPath(
    "GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/measured-traffic",
    `${rolloutPath(rollout)}/measured-traffic${queryString({ range })}`,
  );
}

/** The detail a page's server render read (without sign-in), and when (the page's "now" while it hydrates). */
export interface InitialRolloutDetail {
  detail: RolloutDetail;
  renderedAt: number;
}
