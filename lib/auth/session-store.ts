import "server-only";
import { randomUUID } from "node:crypto";
import type { SessionRecord, SessionRepository } from "@/lib/db/sessions";

/** A session that is neither revoked nor expired. */
export interface ActiveSession {
  readonly id: string;
  readonly user: string;
  readonly groups: readonly string[];
  readonly expiresAt: Date;
}

/** How long an answer from the database is trusted: a sign-out on another replica takes effect within this. */
export const SESSION_CHECK_MS = 5_000;
const MAX_CACHED = 10_000;
/** lastSeenAt is written at most this often per session. */
const TOUCH_EVERY_MS = 60_000;

interface CacheEntry {
  readonly checkedAt: number;
  readonly session: Promise<ActiveSession | null>;
}

function toActive(record: SessionRecord | null): ActiveSession | null {
  if (!record || record.revokedAt) return null;
  return { id: record.id, user: record.user, groups: record.groups, expiresAt: record.expiresAt };
}

/**
 * The server-side sessions of mode oidc: opened at sign-in, revoked at sign-out, checked on every request. Answers
 * are cached for {@link SESSION_CHECK_MS} in a bounded map, and a revocation clears this process's entry at once.
 * Live streams hold {@link SessionStore.untilEnded}, which aborts when their session is revoked or expires.
 */
export class SessionStore {
  private readonly cache = new Map<string, CacheEntry>();
  /** The stream signals per session id. */
  private readonly watchers = new Map<string, Set<AbortController>>();
  private recheckTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: SessionRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async open({ user, groups, ttlSeconds }: { user: string; groups: readonly string[]; ttlSeconds: number }): Promise<ActiveSession> {
    const now = new Date(this.now());
    const record = {
      id: randomUUID(),
      user,
      groups: [...groups],
      createdAt: now,
      expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      lastSeenAt: now,
    };
    await this.repo.create(record);
    return toActive({ ...record, revokedAt: null })!;
  }

  /** The session if it is still active; null when unknown, revoked or expired. A database failure throws. */
  async check(id: string): Promise<ActiveSession | null> {
    const now = this.now();
    let entry = this.cache.get(id);
    if (!entry || now - entry.checkedAt >= SESSION_CHECK_MS) {
      entry = { checkedAt: now, session: this.load(id, now) };
      this.remember(id, entry);
    }
    const session = await entry.session;
    return session && session.expiresAt.getTime() > this.now() ? session : null;
  }

  async revoke(id: string): Promise<void> {
    await this.repo.revoke(id, new Date(this.now()));
    this.remember(id, { checkedAt: this.now(), session: Promise.resolve(null) });
    this.end(id);
  }

  /**
   * A signal that aborts when `signal` does or when the session ends: revoked here at once, revoked elsewhere or
   * expired within about two {@link SESSION_CHECK_MS}.
   */
  untilEnded(id: string, signal: AbortSignal): AbortSignal {
    const controller = new AbortController();
    if (signal.aborted) {
      controller.abort(signal.reason);
      return controller.signal;
    }
    const watching = this.watchers.get(id) ?? new Set<AbortController>();
    this.watchers.set(id, watching.add(controller));
    const onRequestEnd = () => controller.abort(signal.reason);
    signal.addEventListener("abort", onRequestEnd, { once: true });
    controller.signal.addEventListener(
      "abort",
      () => {
        signal.removeEventListener("abort", onRequestEnd);
        this.unwatch(id, controller);
      },
      { once: true },
    );
    this.recheckTimer ??= setInterval(() => void this.recheckWatched(), SESSION_CHECK_MS).unref();
    return controller.signal;
  }

  private load(id: string, now: number): Promise<ActiveSession | null> {
    const loaded = this.repo.find(id).then((record) => {
      if (record && !record.revokedAt && now - record.lastSeenAt.getTime() >= TOUCH_EVERY_MS) {
        this.repo.touch(id, new Date(now)).catch((err: unknown) => console.error(`[session] could not record activity of a session`, err));
      }
      return toActive(record);
    });
    // A failed read is not remembered: the next request asks the database again.
    loaded.catch(() => {
      if (this.cache.get(id)?.session === loaded) this.cache.delete(id);
    });
    return loaded;
  }

  private remember(id: string, entry: CacheEntry): void {
    this.cache.delete(id);
    this.cache.set(id, entry);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
  }

  private async recheckWatched(): Promise<void> {
    for (const id of [...this.watchers.keys()]) {
      // While the database cannot answer, streams stay open; every new request is still refused (503).
      const session = await this.check(id).catch(() => undefined);
      if (session === null) this.end(id);
    }
  }

  private end(id: string): void {
    for (const controller of [...(this.watchers.get(id) ?? [])]) controller.abort(new Error("the session ended"));
  }

  private unwatch(id: string, controller: AbortController): void {
    const watching = this.watchers.get(id);
    watching?.delete(controller);
    if (watching?.size === 0) this.watchers.delete(id);
    if (this.watchers.size === 0 && this.recheckTimer) {
      clearInterval(this.recheckTimer);
      this.recheckTimer = undefined;
    }
  }
}
