import type { ClusterStateView } from "@/lib/contracts/clusters";
import type { FleetRollout } from "@/lib/rollouts/view-model";

export type FleetDelta =
  | { type: "upsert"; rollout: FleetRollout }
  | { type: "delete"; key: string; cluster: string }
  | { type: "cluster"; cluster: ClusterStateView };

/** Built by join, which yields one flat string (a template literal keeps a chain of parts alive in every kept key). */
export function rolloutKey(cluster: string, namespace: string | null | undefined, name: string): string {
  return [cluster, namespace ?? "", name].join("/");
}
