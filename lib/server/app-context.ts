import "server-only";
import { RolloutActionGuard } from "@/lib/actions/action-guard";
import { SessionStore } from "@/lib/auth/session-store";
import { getConfig } from "@/lib/config/current";
import type { RollscopeConfig } from "@/lib/config/schema";
import { createDbClient, durableCommit } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRecorderLeadership, type RecorderLeadership } from "@/lib/db/recorder-leadership";
import { createRepositories, type Repositories } from "@/lib/db/repositories";
import { createSessionRepository } from "@/lib/db/sessions";
import { Fleet } from "@/lib/fleet/fleet";
import { DeltaLog } from "@/lib/live/delta-log";
import { StreamSlots } from "@/lib/live/stream-slots";
import { createMetricsSource } from "@/lib/metrics/sources";
import type { MetricsSource } from "@/lib/metrics/types";
import { Recorder } from "@/lib/recorder/recorder";
import { startBackgroundServices, type BackgroundServices } from "./background-services";

import { ServiceState } from "./service-state";
/**
 * The one composition root: everything a service needs from the process, handed to it as its first argument
 * (`service(app, input)`), so services hold no singletons of their own and tests can hand in their own context.
 */
export interface AppContext {
  readonly config: RollscopeConfig;
  /** Every configured cluster's watcher: `clusters`, `cluster(name)`, `clusterOrThrow(name)`, `rollouts()`. */
  readonly fleet: Fleet;
  /** The database, one repository per table. */
  readonly repos: Repositories;
  /** The history recorder (started with the background services): its `status()` for readiness and the UI. */
  readonly recorder: Recorder;
  /** Whether this replica records history and scrapes metrics (always on SQLite; one replica on PostgreSQL). */
  readonly leadership: RecorderLeadership;
  /** The sequenced fleet changes the live stream serves. */
  readonly deltaLog: DeltaLog;
  /** The open live streams, per user and in all, against server.streams. */
  readonly streamSlots: StreamSlots;
  /** Serializes the actions on each Rollout and remembers what this process already changed. */
  readonly actionGuard: RolloutActionGuard;
  /** The server-side sessions of mode oidc (the same store the route wrapper checks each request against). */
  readonly sessions: SessionStore;
  /** The cluster's metrics source: its Prometheus when configured, otherwise the stored controller scrapes. */
  metricsSource(cluster: string): MetricsSource;
  /** What services keep between requests (their caches): state of this context, never of a module. */
  readonly serviceState: ServiceState;
  now(): number;
}

/** A context for one configuration and database; creating it starts the cluster watches (not the recorder). */
export function createAppContext({
  config,
  db,
  now = Date.now,
  sessions,
}: {
  config: RollscopeConfig;
  db: PrismaClient;
  now?: () => number;
  /** Default: a store of its own on `db`. */
  sessions?: SessionStore;
}): AppContext {
  const fleet = new Fleet(config);
  const repos = createRepositories(db);
  const sources = new Map<string, MetricsSource>();
  const leadership = createRecorderLeadership(db, now);
  return {
    config,
    fleet,
    repos,
    recorder: new Recorder(
      { retentionDays: config.recorder.retentionDays, compactAfterDays: config.recorder.compactAfterDays, leadership },
      repos,
    ),
    leadership,
    deltaLog: new DeltaLog(fleet),
    streamSlots: new StreamSlots(config.server.streams),
    actionGuard: new RolloutActionGuard(),
    sessions: sessions ?? new SessionStore(repos.sessions, now),
    serviceState: new ServiceState(),
    metricsSource(cluster) {
      let source = sources.get(cluster);
      if (!source) sources.set(cluster, (source = createMetricsSource(config, fleet.clusterOrThrow(cluster).config, repos.metricSamples)));
      return source;
    },
    now,
  };
}

/**
 * What the process holds, kept on globalThis: Next.js loads instrumentation and route handlers as
 * separate module instances, and its dev server re-evaluates edited modules, yet all must share one set of cluster
 * watches, one database client and one recorder.
 */
interface ProcessState {
  db?: PrismaClient;
  sessions?: SessionStore;
  app?: AppContext;
  background?: Promise<BackgroundServices>;
}

const processState: ProcessState = ((globalThis as { rollscope?: ProcessState }).rollscope ??= {});

/** The process's database client; opening it starts nothing else. */
function getProcessDb(): PrismaClient {
  processState.db ??= createDbClient();
  return processState.db;
}

/** The process's session store, for authenticating a request; like the database client, it starts nothing else. */
export function getSessionStore(): SessionStore {
  processState.sessions ??= new SessionStore(createSessionRepository(getProcessDb(), durableCommit(getProcessDb())));
  return processState.sessions;
}

/** The process's context; the first call starts the cluster watches (reading the configuration alone does not). */
export function getAppContext(): AppContext {
  processState.app ??= createAppContext({ config: getConfig(), db: getProcessDb(), sessions: getSessionStore() });
  return processState.app;
}

/** The context plus the recorder and the metrics scraper, started once per process (from instrumentation). */
export function startApp(): Promise<BackgroundServices> {
  processState.background ??= startBackgroundServices(getAppContext());
  return processState.background;
}
