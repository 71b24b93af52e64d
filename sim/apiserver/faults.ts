import type { Faults } from "./types";
import { ApiError } from "./status";

const FAILURES = {
  500: { reason: "InternalError", message: "Internal error occurred: injected fault" },
  429: { reason: "TooManyRequests", message: "Too many requests, please try again later." },
  503: { reason: "ServiceUnavailable", message: "the server is currently unable to handle the request" },
} as const;

/** Injected failures; the server consults it on each request and registers every open watch with it. */
export class FaultState implements Faults {
  private readonly openWatches = new Set<() => void>();
  private expireNext = false;
  private failure: { remaining: number; status: 500 | 429 | 503; retryAfterSeconds?: number } | null = null;
  private latency = 0;

  dropWatches(): void {
    for (const destroy of [...this.openWatches]) destroy();
  }

  expireNextWatch(): void {
    this.expireNext = true;
  }

  failNext(count: number, status: 500 | 429 | 503, retryAfterSeconds?: number): void {
    this.failure = count > 0 ? { remaining: count, status, retryAfterSeconds } : null;
  }

  setLatency(ms: number): void {
    this.latency = Math.max(0, ms);
  }

  reset(): void {
    this.expireNext = false;
    this.failure = null;
    this.latency = 0;
  }

  get latencyMs(): number {
    return this.latency;
  }

  /** Registers an open watch; `destroy` ends it abruptly. Returns the unregister function. */
  trackWatch(destroy: () => void): () => void {
    this.openWatches.add(destroy);
    return () => this.openWatches.delete(destroy);
  }

  takeExpire(): boolean {
    const expire = this.expireNext;
    this.expireNext = false;
    return expire;
  }

  /** The injected failure for this request, if one is pending. A 429 always carries Retry-After, as APF's does. */
  takeFailure(): ApiError | null {
    if (!this.failure) return null;
    const { status, retryAfterSeconds } = this.failure;
    if (--this.failure.remaining <= 0) this.failure = null;
    const { reason, message } = FAILURES[status];
    const retryAfter = retryAfterSeconds ?? (status === 429 ? 1 : undefined);
    return new ApiError(status, reason, message, retryAfter ? { retryAfterSeconds: retryAfter } : undefined);
  }
}
