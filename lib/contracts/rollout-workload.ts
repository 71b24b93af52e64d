import type { RolloutInfoView } from "@/lib/rollouts/rollout-info";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { rolloutPath } from "./paths";

/*
 * `GET /api/clusters/{c}/rollouts/{ns}/{name}/replicasets` → RolloutWorkload: the Rollout's ReplicaSets per
 * revision with their Pods, and the numbers `kubectl argo rollouts get rollout` prints (status, step, set and actual
 * weight, images). Read from the cluster on each request (nothing is kept in memory), so only an open detail page
 * costs anything.
 */

export type { ImageInfoView, PodInfoView, ReplicaSetInfoView, ReplicaSetRole, RolloutInfoView } from "@/lib/rollouts/rollout-info";

export interface RolloutWorkload {
  info: RolloutInfoView;
  /** When the ReplicaSets and Pods were read (ISO). */
  readAt: string;
}

export function rolloutWorkloadPath(rollout: RolloutRef): string {
  return `${rolloutPath(rollout)}/replicasets`;
}
