import type { ClusterConnection } from "./clusters";

/**
 * What the history recorder is doing: `failing` while the database refuses its writes (it keeps retrying);
 * `standby` on a replica that does not lead (it keeps what it observes, to take over without a gap).
 */
export type RecorderState = "starting" | "recording" | "standby" | "failing" | "stopped";

/** Which replica records history: always this one on SQLite; on PostgreSQL the holder of an advisory lock. */
export interface LeadershipStatus {
  mode: "single-process" | "postgres-advisory-lock";
  /** `disconnected`: the lock's connection is down (the database is unreachable); this replica does not record. */
  role: "leader" | "standby" | "disconnected";
  since: string;
  lastError: string | null;
}

export interface RecorderStatus {
  state: RecorderState;
  /** When the current state began. */
  since: string;
  /** The latest failure, one line (e.g. "SQLITE_FULL: database or disk is full"); null unless failing. */
  lastError: string | null;
  failedAttempts: number;
  /** When the next retry is due while failing. */
  nextAttemptAt: string | null;
  lastWriteAt: string | null;
  /** Rows waiting to be written. */
  pending: { samples: number; events: number };
  /** Rows dropped since start-up to bound memory while writes failed: history that is lost. */
  dropped: { samples: number; events: number };
}

export interface ReadinessCheck {
  ok: boolean;
  /** Why not, when not ok. */
  detail: string | null;
}

/** A cluster's connection as the probe reports it: no error text (the probe answers without sign-in). */
export interface ReadinessCluster {
  name: string;
  connection: ClusterConnection;
  since: string;
}

/**
 * GET /api/readyz: ready when the configuration is loaded, the database is reachable and migrated, and the start-up
 * warm-up has finished (or failed: it is bounded and never holds readiness beyond that). The
 * recorder's state and each cluster's connection are reported beside it; neither makes the server unready (it still
 * serves the other clusters and the stored history, and retries on its own), so one cluster down never takes every
 * replica out of its Service.
 */
export interface ReadinessReport {
  ready: boolean;
  checks: { config: ReadinessCheck; database: ReadinessCheck; migrations: ReadinessCheck; warmUp: ReadinessCheck };
  /** null when the configuration could not be loaded (nothing runs then). */
  recorder: RecorderStatus | null;
  /** null when the configuration could not be loaded. */
  clusters: ReadinessCluster[] | null;
  /** Reported, not required: a standby replica is ready (it serves everything but recording). */
  leadership: LeadershipStatus | null;
  /** The demo's simulated clusters run this many times faster than real time; absent otherwise. */
  simulatedTimeScale?: number;
}

/**
 * What GET /api/readyz answers: the whole report to a signed-in user (anyone in auth mode none) on an allowed Host;
 * `ready` alone to anyone else, a load balancer's probe or a signed-out browser.
 */
export type ReadinessAnswer = Pick<ReadinessReport, "ready"> & Partial<ReadinessReport>;

/** GET /api/healthz: the process answers. */
export interface Liveness {
  alive: true;
}

/** GET /api/readyz: its path, for the browser's hook. */
export const READINESS_PATH = "/api/readyz";
