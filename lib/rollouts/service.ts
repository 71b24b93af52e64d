import "server-only";
import { getFleet } from "@/lib/fleet/fleet";
import type { ClusterStateView, FleetRollout } from "@/lib/fleet/types";

export interface FleetSnapshot {
  rollouts: FleetRollout[];
  clusters: ClusterStateView[];
  generatedAt: string;
}

/** Every Rollout of every configured cluster, from the watch caches, with each cluster's connection state. */
export function listFleetRollouts(): FleetSnapshot {
  const fleet = getFleet();
  return { rollouts: fleet.rollouts(), clusters: fleet.clusterStates(), generatedAt: new Date().toISOString() };
}
