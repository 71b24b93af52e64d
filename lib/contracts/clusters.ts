import type { RolloutPhase } from "@/lib/rollouts/phase";
import { apiPath, clusterPath } from "./paths";

export type ClusterConnection = "connecting" | "connected" | "reconnecting" | "forbidden" | "unreachable";

export interface ClusterStateView {
  name: string;
  label: string | null;
  controllerNamespace: string;
  connection: ClusterConnection;
  /** When the cluster entered this connection state (ISO). */
  since: string;
  /** What failed, for anything but connected. Never contains credentials. */
  error: string | null;
  /** Per watched resource, for the cluster page. */
  watches: Record<string, { status: ClusterConnection; since: string; error: string | null; listedAt: string | null }>;
  rolloutCount: number;
  /** For one signed-in user: why this cluster's Rollouts are hidden from them (their permissions could not be checked). */
  readError?: string;
}

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
