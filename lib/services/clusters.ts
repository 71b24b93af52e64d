import "server-only";
import type { ClusterStateView } from "@/lib/fleet/types";
import type { AppContext } from "@/lib/server/app-context";

export function listClusters(app: AppContext): { clusters: ClusterStateView[] } {
  return { clusters: app.fleet.clusterStates() };
}

/** One cluster's connection state and its Rollouts counted by phase; 404 for a cluster not configured. */
export function getClusterOrThrow(app: AppContext, name: string): { cluster: ClusterStateView; phaseCounts: Record<string, number> } {
  const watcher = app.fleet.clusterOrThrow(name);
  const phaseCounts: Record<string, number> = { Healthy: 0, Progressing: 0, Paused: 0, Degraded: 0 };
  for (const r of watcher.rollouts()) phaseCounts[r.phase] = (phaseCounts[r.phase] ?? 0) + 1;
  return { cluster: watcher.state(), phaseCounts };
}
