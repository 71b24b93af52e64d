import type { RolloutInfoView } from "@/lib/rollouts/rollout-info";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { apiPath, rolloutPath } from "./paths";

/*
 * `GET /api/clusters/{c}/rollouts/{ns}/{name}/replicasets` → RolloutWorkload: the Rollout's ReplicaSets per
 * revision with their Pods, and the numbers `kubectl argo rollouts get rollout` prints (status, step, set and actual
 * weight, images). Read from the cluster on each request (nothing is kept in memory), so only an open detail page
 * costs anything.
 */

export type {
  ExperimentInfoView,
  ImageInfoView,
  PodInfoView,
  ReplicaSetInfoView,
  ReplicaSetRole,
  RolloutInfoView,
} from "@/lib/rollouts/rollout-info";

export interface RolloutWorkload {
  info: RolloutInfoView;
  /** Why the Experiments are missing (the cluster refused to list them); null when they were read. */
  experimentsError: string | null;
  /** When the ReplicaSets and Pods were read (ISO). */
  readAt: string;
}

export function rolloutWorkloadPath(rollout: RolloutRef) {
  return apiPath("GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/replicasets", `${rolloutPath(rollout)}/replicasets`);
}
