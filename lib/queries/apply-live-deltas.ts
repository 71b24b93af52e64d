import type { LiveDelta, LiveSnapshot } from "@/lib/live/delta-log";

/** Applies a batch of stream deltas to the cached fleet snapshot, returning a new object (React Query data is immutable). */
export function applyLiveDeltas<T extends LiveSnapshot>(current: T, deltas: LiveDelta[]): T {
  if (deltas.length === 0) return current;
  const rollouts = new Map(current.rollouts.map((r) => [r.key, r]));
  const clusters = new Map(current.clusters.map((c) => [c.name, c]));
  for (const delta of deltas) {
    if (delta.type === "upsert") rollouts.set(delta.rollout.key, delta.rollout);
    else if (delta.type === "delete") rollouts.delete(delta.key);
    else clusters.set(delta.cluster.name, delta.cluster);
  }
  return { ...current, rollouts: [...rollouts.values()], clusters: [...clusters.values()] };
}
