import "server-only";

/** The outcome of an action whose intent is audit entry `id`, waiting to be written. */
export interface PendingOutcome {
  id: number;
  requestId: string;
}

const FIRST_RETRY_MS = 1_000;
const MAX_RETRY_MS = 30_000;

/**
 * Outcomes the audit log could not store when the action ended, kept in memory and written again (1 s, 2 s, 4 s …
 * at most every 30 s) until stored: the entry then says what happened instead of staying `pending`, which would be
 * marked interrupted (outcome unknown) after 5 minutes and would meanwhile refuse another action on the same state.
 */
export class OutcomeBacklog {
  private readonly waiting = new Map<number, { outcome: PendingOutcome; write: () => Promise<void> }>();
  private timer: NodeJS.Timeout | null = null;
  private delayMs = FIRST_RETRY_MS;

  constructor(private readonly log: (line: string) => void = console.warn) {}

  /** Keeps `outcome` and calls `write` again until it succeeds. */
  add(outcome: PendingOutcome, write: () => Promise<void>): void {
    this.waiting.set(outcome.id, { outcome, write });
    this.log(
      `[audit] the outcome of audit entry ${outcome.id} (request ${outcome.requestId}) is kept in memory and written again until stored`,
    );
    this.delayMs = FIRST_RETRY_MS;
    this.schedule();
  }

  /** Outcomes not yet stored. */
  get size(): number {
    return this.waiting.size;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer || this.waiting.size === 0) return;
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    this.timer = null;
    let failed = false;
    for (const { outcome, write } of [...this.waiting.values()]) {
      try {
        await write();
        this.waiting.delete(outcome.id);
        this.log(`[audit] the kept outcome of audit entry ${outcome.id} (request ${outcome.requestId}) is stored`);
      } catch {
        failed = true;
        break;
      }
    }
    this.delayMs = failed ? Math.min(this.delayMs * 2, MAX_RETRY_MS) : FIRST_RETRY_MS;
    this.schedule();
  }
}
