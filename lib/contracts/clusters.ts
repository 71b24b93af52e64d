import type { ClusterStateView } from "@/lib/fleet/types";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import { apiPath, clusterPath } from "./paths";

/** `GET /api/clusters`: every configured cluster and its connection state. */
export interface ClusterListResponse {
  clusters: ClusterStateView[];
}

/** `GET /api/clusters/{cluster}`: one cluster with its per-watch states and Rollouts by phase. */
export interface ClusterDetailResponse {
  cluster: ClusterStateView;
  phaseCounts: Partial<Record<RolloutPhase, number>>;
}

export const clustersPath = () => apiPath("GET /api/clusters", "/api/clusters");
export { clusterPath };
export type { ClusterStateView };
