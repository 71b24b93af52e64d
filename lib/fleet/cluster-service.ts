import "server-only";
import { ApiError } from "@/lib/errors/api-error";
import { getFleet } from "./fleet";
import type { ClusterStateView } from "./types";

export function listClusters(): { clusters: ClusterStateView[] } {
  return { clusters: getFleet().clusterStates() };
}

export function getClusterOrThrow(name: string): { cluster: ClusterStateView; phaseCounts: Record<string, number> } {
  const watcher = getFleet().cluster(name);
  if (!watcher) throw new ApiError("not_found", `no cluster named "${name}" is configured`);
  const phaseCounts: Record<string, number> = { Healthy: 0, Progressing: 0, Paused: 0, Degraded: 0 };
  for (const r of watcher.rollouts()) phaseCounts[r.phase] = (phaseCounts[r.phase] ?? 0) + 1;
  return { cluster: watcher.state(), phaseCounts };
}
