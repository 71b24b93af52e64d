import "server-only";

export interface StreamLimits {
  /** Streams one user (or, without sign-in, one client address) may hold open at once. */
  perUser: number;
  /** Streams the whole server holds open at once. */
  total: number;
}

export type StreamSlot = { granted: true; release: () => void } | { granted: false; reason: string; retryAfterSeconds: number };

/**
 * Seconds a refused tab is told to wait: long enough that a flood of retries is not a flood, short enough that a tab
 * closed elsewhere frees its place for the next one soon.
 */
const STREAM_RETRY_AFTER_SECONDS = 10;

/**
 * Counts the open live streams, per user and in all. A stream holds its slot from the moment it is granted until it
 * ends however it ends (release is idempotent), so a refused or closed stream never leaks a place.
 */
export class StreamSlots {
  private readonly perUser = new Map<string, number>();
  private open = 0;

  constructor(private readonly limits: StreamLimits) {}

  acquire(userKey: string): StreamSlot {
    const mine = this.perUser.get(userKey) ?? 0;
    if (mine >= this.limits.perUser)
      return {
        granted: false,
        reason: `too many live streams for this user (${this.limits.perUser} open): close a tab or retry later`,
        retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
      };
    if (this.open >= this.limits.total)
      return {
        granted: false,
        reason: `the server has its ${this.limits.total} live streams open: retry later`,
        retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
      };
    this.perUser.set(userKey, mine + 1);
    this.open += 1;
    let released = false;
    return {
      granted: true,
      release: () => {
        if (released) return;
        released = true;
        this.open -= 1;
        const left = (this.perUser.get(userKey) ?? 1) - 1;
        if (left > 0) this.perUser.set(userKey, left);
        else this.perUser.delete(userKey);
      },
    };
  }

  /** Open streams, in all and of one user. */
  count(userKey?: string): number {
    return userKey === undefined ? this.open : (this.perUser.get(userKey) ?? 0);
  }
}
