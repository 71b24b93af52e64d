/**
 * Reads that change slowly, kept for a while and reused: the plugin health report's SLO burn windows (1 hour and 24
 * hours of every Rollout's counters) move little between two refreshes of the report, ten seconds apart, and were
 * its most expensive queries. Entries are keyed by what was read (the cluster, each plugin's Rollouts).
 *
 * `read` answers from a value younger than `reuseMs`; from an older one up to `keepMs` while one read replaces it in
 * the background (so the report's computation does not wait on the window); and otherwise, or for a new key, waits for
 * the read. Keys not asked for within `keepMs` are dropped on the next write, so changing memberships cannot make the
 * map grow.
 */
export class ReusedReads<V> {
  private readonly entries = new Map<string, { atMs: number; value: V }>();
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(
    private readonly reuseMs: number,
    private readonly keepMs: number = reuseMs,
  ) {}

  /** The value for `key` and when it was read: reused, or read now (see the class). */
  async read(key: string, nowMs: number, load: () => Promise<V>): Promise<{ value: V; atMs: number }> {
    const entry = this.entries.get(key);
    const age = entry ? nowMs - entry.atMs : Number.POSITIVE_INFINITY;
    if (entry && age < this.reuseMs) return entry;
    if (entry && age < this.keepMs) {
      // A failed refresh keeps the older value; once that is past keepMs the next read waits and shows the error.
      this.refresh(key, nowMs, load).catch(() => undefined);
      return entry;
    }
    return { value: await this.refresh(key, nowMs, load), atMs: nowMs };
  }

  /** One read per key at a time: a read already under way answers the callers that come meanwhile. */
  private refresh(key: string, nowMs: number, load: () => Promise<V>): Promise<V> {
    const running = this.inFlight.get(key);
    if (running) return running;
    const settled = load()
      .then((value) => {
        this.set(key, value, nowMs);
        return value;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, settled);
    return settled;
  }

  private set(key: string, value: V, nowMs: number): void {
    for (const [other, entry] of this.entries) if (nowMs - entry.atMs >= this.keepMs) this.entries.delete(other);
    this.entries.set(key, { atMs: nowMs, value });
  }

  get size(): number {
    return this.entries.size;
  }
}
