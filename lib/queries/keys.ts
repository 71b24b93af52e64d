import type { ActivityFilters } from "@/lib/contracts/activity";
import type { AuditFilters } from "@/lib/contracts/audit";
import type { HealthRange } from "@/lib/contracts/plugins";
import type { HistoryRange } from "@/lib/contracts/rollout-detail";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";

/**
 * Every React Query key of the app, from this one factory; the query factories (`xQuery()`) use it, and the live
 * stream's writer reaches a query only through `xQuery(...).queryKey` or a prefix from here, never by key positions.
 * Keys nest so that one prefix reaches everything about a Rollout (detail, history, measured traffic, actions).
 */
export const queryKeys = {
  /** Every overview page; a page is keyed by its view's query string. */
  fleet: () => ["fleet"] as const,
  fleetPage: (query: string) => ["fleet", query] as const,
  rollouts: () => ["rollout"] as const,
  rollout: ({ cluster, namespace, name }: RolloutRef) => ["rollout", cluster, namespace, name] as const,
  rolloutDetail: (rollout: RolloutRef) => [...queryKeys.rollout(rollout), "detail"] as const,
  rolloutHistory: (rollout: RolloutRef, range: HistoryRange) => [...queryKeys.rollout(rollout), "history", range] as const,
  rolloutHistories: (rollout: RolloutRef) => [...queryKeys.rollout(rollout), "history"] as const,
  rolloutMeasuredTraffic: (rollout: RolloutRef, range: HistoryRange) => [...queryKeys.rollout(rollout), "measured-traffic", range] as const,
  rolloutActions: (rollout: RolloutRef) => [...queryKeys.rollout(rollout), "actions"] as const,
  rolloutWorkload: (rollout: RolloutRef) => [...queryKeys.rollout(rollout), "workload"] as const,
  /** Written by the live stream only (never fetched): outside the Rollout's prefix, so invalidating that leaves it be. */
  liveActionFingerprint: ({ cluster, namespace, name }: RolloutRef) => ["live-action-fingerprint", cluster, namespace, name] as const,
  clusters: () => ["clusters"] as const,
  cluster: (name: string) => ["cluster", name] as const,
  clusterPrefix: () => ["cluster"] as const,
  plugins: () => ["plugins"] as const,
  pluginsOverview: () => ["plugins", "overview"] as const,
  clusterPlugins: (cluster: string) => ["plugins", "cluster", cluster] as const,
  pluginHealth: (range: HealthRange, cluster: string | null, plugin: string | null) =>
    ["plugins", "health", range, cluster, plugin] as const,
  audit: (filters: AuditFilters) => ["audit", filters] as const,
  activity: (filters: ActivityFilters) => ["activity", filters] as const,
  session: () => ["session"] as const,
  readiness: () => ["readiness"] as const,
};
