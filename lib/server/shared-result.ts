/**
 * One computation answers every request for the same key: fresh for `freshMs` after it is ready; then, until
 * `staleMs`, the last result is still answered at once while a single refresh runs in the background (stale while
 * revalidate); older than that, or never computed, requests wait for the one computation in flight. A failed
 * computation is never kept: the next request tries again, and a failed background refresh leaves the last good
 * result in place until it is too old.
 */
export interface SharedResult<V> {
  get(key: string): Promise<V>;
  /** Forgets every result (tests, configuration reloads). */
  clear(): void;
}

interface Entry<V> {
  value?: { result: V; at: number };
  inFlight?: Promise<V>;
}

export function createSharedResult<V>(options: {
  compute: (key: string) => Promise<V>;
  freshMs: number;
  staleMs: number;
  maxKeys?: number;
  now?: () => number;
}): SharedResult<V> {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 50;
  const entries = new Map<string, Entry<V>>();

  function start(key: string, entry: Entry<V>): Promise<V> {
    const run = options.compute(key).then((result) => {
      entry.value = { result, at: now() };
      return result;
    });
    entry.inFlight = run;
    const settled = () => {
      if (entry.inFlight === run) entry.inFlight = undefined;
    };
    run.then(settled, settled);
    return run;
  }

  return {
    get(key) {
      let entry = entries.get(key);
      if (!entry) {
        entry = {};
        entries.set(key, entry);
        if (entries.size > maxKeys) entries.delete(entries.keys().next().value!);
      }
      const age = entry.value ? now() - entry.value.at : Number.POSITIVE_INFINITY;
      if (entry.value && age < options.freshMs) return Promise.resolve(entry.value.result);
      if (entry.value && age < options.staleMs) {
        // A failed refresh is not the caller's problem: the last good result stands.
        if (!entry.inFlight) start(key, entry).catch(() => undefined);
        return Promise.resolve(entry.value.result);
      }
      return entry.inFlight ?? start(key, entry);
    },
    clear() {
      entries.clear();
    },
  };
}
