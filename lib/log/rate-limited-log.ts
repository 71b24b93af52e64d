import { logger } from "./logger";

export interface RateLimitedLog {
  /**
   * Logs an error once per `intervalMs` for the same key (a watch, a cluster's scrape, the recorder's flush); repeats
   * in between are counted and the count is reported with the next line that is logged.
   */
  error(key: string, message: string, err?: unknown): void;
}

export interface RateLimitedLogOptions {
  intervalMs?: number;
  now?: () => number;
  write?: (line: string, err?: unknown) => void;
}

/** Keys whose last line is older than this many intervals are forgotten, so the map stays small. */
const FORGET_AFTER_INTERVALS = 10;

/** A logger for errors that repeat in a loop (every scrape, every flush, every reconnect) without flooding the log. */
export function createRateLimitedLog(options: RateLimitedLogOptions = {}): RateLimitedLog {
  const intervalMs = options.intervalMs ?? 60_000;
  const now = options.now ?? Date.now;
  const write =
    options.write ?? ((line: string, err?: unknown) => (err === undefined ? logger().error(line) : logger().error({ err }, line)));
  const seen = new Map<string, { loggedAt: number; suppressed: number }>();
  return {
    error(key, message, err) {
      const at = now();
      const entry = seen.get(key);
      if (entry && at - entry.loggedAt < intervalMs) {
        entry.suppressed++;
        return;
      }
      const repeats = entry?.suppressed ? ` (${entry.suppressed} more like it since the last report)` : "";
      seen.set(key, { loggedAt: at, suppressed: 0 });
      if (seen.size > 1_000) for (const [k, v] of seen) if (at - v.loggedAt > intervalMs * FORGET_AFTER_INTERVALS) seen.delete(k);
      write(`${message}${repeats}`, err);
    },
  };
}

const globalForLog = globalThis as unknown as { rollscopeRateLimitedLog?: RateLimitedLog };

/** The process's rate-limited error log (one minute per key). */
export function rateLimitedLog(): RateLimitedLog {
  globalForLog.rollscopeRateLimitedLog ??= createRateLimitedLog();
  return globalForLog.rollscopeRateLimitedLog;
}
