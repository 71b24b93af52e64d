import "server-only";

/** Denied attempts written to the audit log per user and minute; the rest are counted into the next one written. */
export const DENIED_ROWS_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

export type DeniedVerdict = { record: true; note: string } | { record: false };

/**
 * Bounds the `denied` rows one user can add: anyone who may read can click (or script) a refused action, and each
 * refusal is a row. Within a minute the first {@link DENIED_ROWS_PER_MINUTE} are written; later ones are counted,
 * and the next row written for that user says how many were not written one by one.
 */
export class DeniedRowLimiter {
  private readonly users = new Map<string, { windowStart: number; written: number; skipped: number }>();

  admit(user: string, now: number): DeniedVerdict {
    let state = this.users.get(user);
    if (!state || now - state.windowStart >= WINDOW_MS) {
      state = { windowStart: now, written: 0, skipped: state?.skipped ?? 0 };
      this.users.set(user, state);
    }
    if (state.written >= DENIED_ROWS_PER_MINUTE) {
      state.skipped += 1;
      return { record: false };
    }
    state.written += 1;
    const note = state.skipped > 0 ? ` (and ${state.skipped} more denied attempts by this user before it, not written one by one)` : "";
    state.skipped = 0;
    this.prune(now);
    return { record: true, note };
  }

  /** Forgets users whose window ended with nothing left to report, so the map stays as small as the active users. */
  private prune(now: number): void {
    if (this.users.size < 1_000) return;
    for (const [user, state] of this.users) if (now - state.windowStart >= WINDOW_MS && state.skipped === 0) this.users.delete(user);
  }
}
