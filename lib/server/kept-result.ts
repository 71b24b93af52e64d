import { messageOf } from "@/lib/errors/message-of";

/**
 * One result the server keeps computed in the background, so a request never waits for a cold computation: computed
 * once at start (after `ready`), then recomputed every `everyMs` (the next run is scheduled when one ends: never two
 * at once) while someone asked for it in the last `idleAfterMs`; a request for a result older than `freshMs` starts
 * the refresh at once (answering the kept one, `refreshing`). An idle server stops asking its sources; the next
 * request resumes the refreshes. A result older than `staleMs` is never answered: the request waits for a new one
 * (the one in flight, if any). A failed refresh keeps the last good result, marked with the error (`refreshError`),
 * and is logged once until a refresh succeeds again.
 */
export interface KeptResult<V> {
  /** The kept result (waiting only when there is none younger than `staleMs`), and notes that someone asked. */
  get(): Promise<{ value: V; refreshing: boolean; refreshError: string | null }>;
  /** Runs the first computation (after `ready`) and the refreshes after it. */
  start(): void;
  /** No refresh is scheduled after this; one in flight ends without scheduling another. */
  stop(): void;
}

export interface KeptResultOptions<V> {
  compute: () => Promise<V>;
  /** What the first computation waits for (the fleet's first list); a rejection is logged and the computation runs anyway. */
  ready?: () => Promise<void>;
  /** False: no computation at start; the first request computes (once), and the refreshes follow from there. */
  computeAtStart?: boolean;
  everyMs: number;
  staleMs: number;
  /** Within `staleMs` but older than this, the answer says `refreshing` when a refresh is in flight. */
  freshMs: number;
  idleAfterMs: number;
  now?: () => number;
  log?: (line: string) => void;
  /** What the log lines name. */
  name: string;
}

/** After a failed refresh, requests start the next one no sooner than this. */
const RETRY_MS = 5_000;

export function createKeptResult<V>(options: KeptResultOptions<V>): KeptResult<V> {
  const { everyMs, staleMs, freshMs, idleAfterMs, name, now = Date.now, log = console.warn } = options;
  let kept: { value: V; at: number } | undefined;
  let refreshError: string | null = null;
  let failedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<V> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastAskedAt = now();
  let running = false;

  function refresh(): Promise<V> {
    inFlight ??= options.compute().then(
      (value) => {
        kept = { value, at: now() };
        refreshError = null;
        return value;
      },
      (err: unknown) => {
        if (refreshError === null)
          log(`${name}: the background refresh failed (${messageOf(err)}); the last good result is kept while it is recent`);
        refreshError = messageOf(err);
        failedAt = now();
        throw err;
      },
    );
    const run = inFlight;
    void run.then(settle, settle);
    return run;
    function settle() {
      if (inFlight === run) inFlight = undefined;
      scheduleNext();
    }
  }

  function scheduleNext(): void {
    if (!running || timer !== undefined || inFlight) return;
    // Idle: nobody asked lately, so stop querying; the next request resumes.
    if (now() - lastAskedAt >= idleAfterMs) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (running) refresh().catch(() => undefined);
    }, everyMs);
    timer.unref?.();
  }

  return {
    async get() {
      lastAskedAt = now();
      const age = kept ? now() - kept.at : Number.POSITIVE_INFINITY;
      if (kept && age < staleMs) {
        // Past fresh, a request refreshes at once (at most every RETRY_MS after a failure); else it resumes the
        // refreshes after an idle spell (a no-op while they run).
        if (age >= freshMs && !inFlight && now() - failedAt >= RETRY_MS) {
          clearTimeout(timer);
          timer = undefined;
          refresh().catch(() => undefined);
        } else scheduleNext();
        return { value: kept.value, refreshing: inFlight !== undefined && age >= freshMs, refreshError };
      }
      return { value: await (inFlight ?? refresh()), refreshing: false, refreshError: null };
    },
    start() {
      if (running) return;
      running = true;
      lastAskedAt = now();
      if (options.computeAtStart === false) return;
      const ready = options.ready
        ? options.ready().catch((err: unknown) => log(`${name}: computing without waiting (${messageOf(err)})`))
        : Promise.resolve();
      void ready.then(() => {
        if (running && !inFlight && !kept) refresh().catch(() => undefined);
      });
    },
    stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
