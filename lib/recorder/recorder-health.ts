import "server-only";
import type { RecorderState, RecorderStatus } from "@/lib/contracts/readiness";
import { redactErrorText } from "@/lib/errors/known-secrets";

/** One line a person can act on: SQLite's own code and message rather than Prisma's multi-line wrapper. */
function describeWriteError(err: unknown): string {
  const cause = (err as { cause?: { originalCode?: unknown; originalMessage?: unknown } } | null)?.cause;
  if (typeof cause?.originalMessage === "string")
    return redactErrorText(`${String(cause.originalCode ?? "error")}: ${cause.originalMessage}`).slice(0, 300);
  const text = err instanceof Error ? err.message : String(err);
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return redactErrorText(lines.at(-1) ?? "unknown error").slice(0, 300);
}

/** Repeated failures are logged at first, then once a minute, so a full disk does not flood the log. */
const LOG_EVERY_MS = 60_000;

/**
 * The recorder's state for /api/readyz and the UI: recording, or failing since when and why, with the backoff of
 * its retries and the count of rows it had to drop to bound its memory.
 */
export class RecorderHealth {
  private state: RecorderState = "starting";
  private since: number;
  private failures = 0;
  private retryAt = 0;
  private lastError: string | null = null;
  private lastWriteAt: number | null = null;
  private lastLogAt = 0;
  private readonly droppedRows = { samples: 0, events: 0 };

  constructor(private readonly options: { now: () => number; retryDelayMs: number; maxRetryDelayMs: number }) {
    this.since = options.now();
  }

  /** Writes (or the start-up read) are failing: what waits may have to be bounded. */
  failing(): boolean {
    return this.state === "failing";
  }

  /** Whether the next write (or start-up read) may be tried now: always, unless waiting out a failure's backoff. */
  dueForAttempt(): boolean {
    return this.state !== "failing" || this.options.now() >= this.retryAt;
  }

  /** The start-up read succeeded: recording from now on. */
  started(): void {
    if (this.state === "failing") this.recover("the database can be read again");
    else if (this.state === "starting" || this.state === "standby") this.enter("recording");
  }

  /** Another replica records (or none can: the database is unreachable); this one observes and waits. */
  standby(): void {
    if (this.state !== "standby") this.enter("standby");
  }

  written(samples: number, events: number): void {
    this.lastWriteAt = this.options.now();
    if (this.state === "failing") this.recover(`writes succeed again (${samples} states and ${events} events that waited are stored)`);
  }

  failed(err: unknown): void {
    const now = this.options.now();
    this.failures++;
    this.lastError = describeWriteError(err);
    this.retryAt = now + Math.min(this.options.retryDelayMs * 2 ** (this.failures - 1), this.options.maxRetryDelayMs);
    if (this.state !== "failing") this.enter("failing");
    if (this.failures === 1 || now - this.lastLogAt >= LOG_EVERY_MS) {
      this.lastLogAt = now;
      console.error(`recorder: the database failed (attempt ${this.failures}); keeping the unwritten rows and retrying`, err);
    }
  }

  dropped(samples: number, events: number): void {
    if (samples === 0 && events === 0) return;
    if (this.droppedRows.samples === 0 && this.droppedRows.events === 0) {
      console.error(`recorder: too many unwritten rows while the database fails; dropping the oldest (counted in /api/readyz)`);
    }
    this.droppedRows.samples += samples;
    this.droppedRows.events += events;
  }

  stopped(): void {
    this.enter("stopped");
  }

  view(pending: { samples: number; events: number }): RecorderStatus {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    return {
      state: this.state,
      since: new Date(this.since).toISOString(),
      lastError: this.lastError,
      failedAttempts: this.failures,
      nextAttemptAt: this.state === "failing" ? iso(this.retryAt) : null,
      lastWriteAt: iso(this.lastWriteAt),
      pending,
      dropped: { ...this.droppedRows },
    };
  }

  private recover(what: string): void {
    console.info(`recorder: ${what} after ${this.failures} failed attempts`);
    this.failures = 0;
    this.lastError = null;
    this.enter("recording");
  }

  private enter(state: RecorderState): void {
    this.state = state;
    this.since = this.options.now();
  }
}
