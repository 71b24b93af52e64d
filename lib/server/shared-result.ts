/**
 * One computation answers every request for the same key: fresh for `freshMs` after it is ready; then, until
 * `staleMs`, the last result is still answered at once while a single refresh runs in the background (stale while
 * revalidate, `refreshing: true`); older than that, or never computed, requests wait for the one computation in
 * flight. A failed computation is never kept: the next request tries again, and a failed background refresh leaves
 * the last good result in place until it is too old (retried at most every `retryMs`). The most recently used keys
 * are kept.
 */
export interface SharedResult<V> {
  get(key: string): Promise<{ value: V; refreshing: boolean }>;
  /** Forgets every result (tests, configuration reloads). */
  clear(): void;
}

interface Entry<V> {
  value?: { result: V; at: number };
  inFlight?: Promise<V>;
  failedAt?: number;
}

export function createSharedResult<V>(options: {
  compute: (key: string) => Promise<V>;
  freshMs: number;
  staleMs: number;
  retryMs?: number;
  maxKeys?: number;
  now?: () => number;
}): SharedResult<V> {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 50;
  const retryMs = options.retryMs ?? 5_000;
  const entries = new Map<string, Entry<V>>();

  function start(key: string, entry: Entry<V>): Promise<V> {
    const run = options.compute(key).then(
      (result) => {
        entry.value = { result, at: now() };
        entry.failedAt = undefined;
        return result;
      },
      (err: unknown) => {
        entry.failedAt = now();
        // Nothing to keep: do not let a failing key hold a place (or push out one that works).
        if (!entry.value && entries.get(key) === entry) entries.delete(key);
        throw err;
      },
    );
    entry.inFlight = run;
    const settled = () => {
      if (entry.inFlight === run) entry.inFlight = undefined;
    };
    run.then(settled, settled);
    return run;
  }

  return {
    async get(key) {
      let entry = entries.get(key);
      if (entry) {
        // Most recently used last, so eviction takes the least recently used.
        entries.delete(key);
        entries.set(key, entry);
      } else {
        entry = {};
        entries.set(key, entry);
        if (entries.size > maxKeys) entries.delete(entries.keys().next().value!);
      }
      const t = now();
      const age = entry.value ? t - entry.value.at : Number.POSITIVE_INFINITY;
      if (entry.value && age < options.freshMs) return { value: entry.value.result, refreshing: false };
      if (entry.value && age < options.staleMs) {
        const mayRetry = entry.failedAt === undefined || t - entry.failedAt >= retryMs;
        // A failed refresh is not the caller's problem: the last good result stands.
        if (!entry.inFlight && mayRetry) start(key, entry).catch(() => undefined);
        return { value: entry.value.result, refreshing: entry.inFlight !== undefined };
      }
      return { value: await (entry.inFlight ?? start(key, entry)), refreshing: false };
    },
    clear() {
      entries.clear();
    },
  };
}
