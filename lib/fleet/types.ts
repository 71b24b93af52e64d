import type { RolloutView } from "@/lib/rollouts/view-model";

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

export interface FleetRollout extends RolloutView {
  cluster: string;
  /** `cluster/namespace/name`: unique across the fleet. */
  key: string;
  /** Set when the object did not match the Rollout schema; the view then shows what could be read. */
  parseError: string | null;
  /** When this Rollout last changed, as seen by Rollscope (ISO). */
  lastChangedAt: string;
}

export type FleetDelta =
  | { type: "upsert"; rollout: FleetRollout }
  | { type: "delete"; key: string; cluster: string }
  | { type: "cluster"; cluster: ClusterStateView };

/** Built by join, which yields one flat string (a template literal keeps a chain of parts alive in every kept key). */
export function rolloutKey(cluster: string, namespace: string | null | undefined, name: string): string {
  return [cluster, namespace ?? "", name].join("/");
}
