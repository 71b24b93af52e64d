import "server-only";
import { canReadNamespace, scopeClusterState, type ReadScope } from "@/lib/auth/read-scope";
import type { ClusterDetailResponse, ClusterListResponse, ClusterStateView } from "@/lib/contracts/clusters";
import type { AppContext } from "@/lib/server/app-context";

/** Every cluster's state as this user sees it: Rollout counts over what they may read, and why not, when unknown. */
export function listReadableClusterStates(app: AppContext, scope: ReadScope): ClusterStateView[] {
  return app.fleet.clusterStates().map((state) => scopeClusterState(scope, state, app.deltaLog.namespaceCounts(state.name)));
}

export function listClusters(app: AppContext, { scope }: { scope: ReadScope }): ClusterListResponse {
  return { clusters: listReadableClusterStates(app, scope) };
}

/** One cluster's connection state and the Rollouts the user may read, counted by phase; 404 for a cluster not configured. */
export function getClusterOrThrow(app: AppContext, { name, scope }: { name: string; scope: ReadScope }): ClusterDetailResponse {
  const watcher = app.fleet.clusterOrThrow(name);
  const phaseCounts: ClusterDetailResponse["phaseCounts"] = { Healthy: 0, Progressing: 0, Paused: 0, Degraded: 0 };
  for (const r of watcher.rollouts()) {
    if (canReadNamespace(scope, name, r.namespace ?? "")) phaseCounts[r.phase] = (phaseCounts[r.phase] ?? 0) + 1;
  }
  return { cluster: scopeClusterState(scope, watcher.state(), app.deltaLog.namespaceCounts(name)), phaseCounts };
}
