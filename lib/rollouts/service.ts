import "server-only";
import { getDeltaLog, type LiveSnapshot } from "@/lib/live/delta-log";

export type FleetSnapshot = LiveSnapshot & { generatedAt: string };

/** Every Rollout of every configured cluster as overview rows, from the watch caches, with each cluster's state. */
export function listFleetRollouts(): FleetSnapshot {
  return { ...getDeltaLog().snapshot(), generatedAt: new Date().toISOString() };
}
