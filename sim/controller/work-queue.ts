export type WorkKind = "rollout" | "replicaSet" | "analysisRun" | "experiment";

/**
 * The controller's work queues, one per kind of object: keys marked dirty by watch events, and keys due at a time
 * (requeue-after). Taking drains both; keys not processed within a pass's budget are put back.
 */
export class WorkQueue {
  private readonly dirty = new Map<WorkKind, Set<string>>();
  private readonly due = new Map<WorkKind, Map<string, number>>();

  private set(kind: WorkKind): Set<string> {
    let s = this.dirty.get(kind);
    if (!s) this.dirty.set(kind, (s = new Set()));
    return s;
  }

  private dueMap(kind: WorkKind): Map<string, number> {
    let m = this.due.get(kind);
    if (!m) this.due.set(kind, (m = new Map()));
    return m;
  }

  add(kind: WorkKind, key: string): void {
    this.set(kind).add(key);
  }

  addAll(kind: WorkKind, keys: Iterable<string>): void {
    const s = this.set(kind);
    for (const key of keys) s.add(key);
  }

  /** Due at `atMs` (epoch ms); an earlier time wins. */
  addAt(kind: WorkKind, key: string, atMs: number): void {
    const m = this.dueMap(kind);
    const existing = m.get(key);
    if (existing === undefined || atMs < existing) m.set(key, atMs);
  }

  forget(kind: WorkKind, key: string): void {
    this.set(kind).delete(key);
    this.dueMap(kind).delete(key);
  }

  /** Dirty keys, keys due by `now` and `extra`, sorted (so runs replay) and removed from the queue. */
  take(kind: WorkKind, now: number, extra: string[] = []): string[] {
    const keys = new Set(extra);
    const s = this.set(kind);
    for (const key of s) keys.add(key);
    s.clear();
    const m = this.dueMap(kind);
    for (const [key, at] of m) {
      if (at > now) continue;
      keys.add(key);
      m.delete(key);
    }
    return [...keys].sort();
  }

  pending(kind: WorkKind): number {
    return this.set(kind).size;
  }
}
