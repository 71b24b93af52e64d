/**
 * Reads that change slowly, kept for a while and reused: the plugin health report reads the 24-hour SLO burn window
 * on every refresh (every 30 s), although it moves little in a few minutes and is its most expensive query (a day of
 * samples per series). Entries are keyed by what was read (the cluster, each plugin's Rollouts); a key not asked for
 * within `reuseMs` is dropped on the next write, so changing memberships cannot make the map grow.
 */
export class ReusedReads<V> {
  private readonly entries = new Map<string, { atMs: number; value: V }>();

  constructor(private readonly reuseMs: number) {}

  /** The value read for `key` less than `reuseMs` before `nowMs`, if any. */
  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    return entry && nowMs - entry.atMs < this.reuseMs ? entry.value : undefined;
  }

  set(key: string, value: V, nowMs: number): void {
    for (const [other, entry] of this.entries) if (nowMs - entry.atMs >= this.reuseMs) this.entries.delete(other);
    this.entries.set(key, { atMs: nowMs, value });
  }

  get size(): number {
    return this.entries.size;
  }
}
