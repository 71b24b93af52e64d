/** What the history recorder is doing: `failing` while the database refuses its writes (it keeps retrying). */
export type RecorderState = "starting" | "recording" | "failing" | "stopped";

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

/**
 * GET /api/readyz: ready when the configuration is loaded and the database is reachable and migrated. The
 * recorder's state is reported beside it; a failing recorder does not make the server unready (it still serves the
 * fleet and the stored history, and retries on its own).
 */
export interface ReadinessReport {
  ready: boolean;
  checks: { config: ReadinessCheck; database: ReadinessCheck; migrations: ReadinessCheck };
  /** null when the configuration could not be loaded (nothing runs then). */
  recorder: RecorderStatus | null;
  /** The demo's simulated clusters run this many times faster than real time; absent otherwise. */
  simulatedTimeScale?: number;
}

/** GET /api/readyz: its path, for the browser's hook. */
export const READINESS_PATH = "/api/readyz";
