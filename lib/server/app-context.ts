import "server-only";
import { getConfig } from "@/lib/config/current";
import type { RollscopeConfig } from "@/lib/config/schema";
import { getFleet, type Fleet } from "@/lib/fleet/fleet";
import { getDeltaLog, type DeltaLog } from "@/lib/live/delta-log";
import { getMetricsSource } from "@/lib/metrics/sources";
import type { MetricsSource } from "@/lib/metrics/types";

/**
 * The one composition root: everything a service needs from the process, handed to it as its first argument
 * (`service(app, input)`), so services hold no singletons of their own and tests can hand in their own context.
 */
export interface AppContext {
  readonly config: RollscopeConfig;
  /** Every configured cluster's watcher: `clusters`, `cluster(name)`, `clusterOrThrow(name)`, `rollouts()`. */
  readonly fleet: Fleet;
  /** The sequenced fleet changes the live stream serves. */
  readonly deltaLog: DeltaLog;
  /** The cluster's metrics source: its Prometheus when configured, otherwise the stored controller scrapes. */
  metricsSource(cluster: string): MetricsSource;
  now(): number;
}

const globalForApp = globalThis as unknown as { rollscopeAppContext?: AppContext };

/** The process's context; the first call starts the cluster watches (reading the configuration alone does not). */
export function getAppContext(): AppContext {
  if (globalForApp.rollscopeAppContext) return globalForApp.rollscopeAppContext;
  const config = getConfig();
  const fleet = getFleet();
  const app: AppContext = {
    config,
    fleet,
    deltaLog: getDeltaLog(),
    metricsSource: (cluster) => getMetricsSource(config, fleet.clusterOrThrow(cluster).config),
    now: () => Date.now(),
  };
  globalForApp.rollscopeAppContext = app;
  return app;
}
