import { describe, expect, it, vi } from "vitest";
import type { SessionRecord, SessionRepository } from "@/lib/db/sessions";
import { SESSION_CHECK_MS, SessionStore } from "./session-store";

/** The Session table in memory, counting reads; `failing` makes every call throw, as a database that is down. */
function memoryRepository() {
  const rows = new Map<string, SessionRecord>();
  const state = { reads: 0, failing: false };
  const guard = () => {
    if (state.failing) throw new Error("SQLITE_BUSY: database is locked");
  };
  const repo: SessionRepository = {
    async create(record) {
      guard();
      rows.set(record.id, { ...record, revokedAt: null });
    },
    async find(id) {
      guard();
      state.reads++;
      return rows.get(id) ?? null;
    },
    async revoke(id, at) {
      guard();
      const row = rows.get(id);
      if (row && !row.revokedAt) row.revokedAt = at;
    },
    async touch(id, at) {
      const row = rows.get(id);
      if (row) row.lastSeenAt = at;
    },
    async deleteEnded() {
      return 0;
    },
  };
  return { repo, rows, state };
}

function setup() {
  const clock = { now: 1_000_000 };
  const db = memoryRepository();
  return { clock, db, store: new SessionStore(db.repo, () => clock.now) };
}

describe("SessionStore", () => {
  it("answers from the database at most once per check interval", async () => {
    const { clock, db, store } = setup();
    const session = await store.open({ user: "alice", groups: ["sre"], ttlSeconds: 3600 });
    expect(await store.check(session.id)).toMatchObject({ user: "alice", groups: ["sre"] });
    await store.check(session.id);
    expect(db.state.reads).toBe(1);
    clock.now += SESSION_CHECK_MS;
    await store.check(session.id);
    expect(db.state.reads).toBe(2);
  });

  it("a revocation here takes effect at once; one on another replica within the check interval", async () => {
    const { clock, db, store } = setup();
    const here = await store.open({ user: "alice", groups: [], ttlSeconds: 3600 });
    await store.check(here.id);
    await store.revoke(here.id);
    expect(await store.check(here.id)).toBeNull();

    const elsewhere = await store.open({ user: "bob", groups: [], ttlSeconds: 3600 });
    await store.check(elsewhere.id);
    db.rows.get(elsewhere.id)!.revokedAt = new Date(clock.now);
    clock.now += SESSION_CHECK_MS;
    expect(await store.check(elsewhere.id)).toBeNull();
  });

  it("an expired session is over even while its answer is cached", async () => {
    const { clock, store } = setup();
    const session = await store.open({ user: "alice", groups: [], ttlSeconds: 60 });
    await store.check(session.id);
    clock.now += 60_000;
    expect(await store.check(session.id)).toBeNull();
  });

  it("throws while the database cannot answer, and asks again on the next request", async () => {
    const { clock, db, store } = setup();
    const session = await store.open({ user: "alice", groups: [], ttlSeconds: 3600 });
    db.state.failing = true;
    await expect(store.check(session.id)).rejects.toThrow(/locked/);
    db.state.failing = false;
    clock.now += 1;
    expect(await store.check(session.id)).toMatchObject({ user: "alice" });
  });

  it("ends the signals of a session's streams when it is revoked, and only those", async () => {
    const { store } = setup();
    const alice = await store.open({ user: "alice", groups: [], ttlSeconds: 3600 });
    const other = await store.open({ user: "alice", groups: [], ttlSeconds: 3600 });
    const otherRequest = new AbortController();
    const aliceStream = store.untilEnded(alice.id, new AbortController().signal);
    const otherStream = store.untilEnded(other.id, otherRequest.signal);
    await store.revoke(alice.id);
    expect(aliceStream.aborted).toBe(true);
    expect(otherStream.aborted).toBe(false);
    otherRequest.abort();
  });

  it("ends a stream when its session expires or is revoked on another replica", async () => {
    vi.useFakeTimers();
    try {
      const { clock, db, store } = setup();
      const expiring = await store.open({ user: "alice", groups: [], ttlSeconds: 60 });
      const revoked = await store.open({ user: "bob", groups: [], ttlSeconds: 3600 });
      const expiringStream = store.untilEnded(expiring.id, new AbortController().signal);
      const revokedStream = store.untilEnded(revoked.id, new AbortController().signal);
      clock.now += 60_000;
      db.rows.get(revoked.id)!.revokedAt = new Date(clock.now);
      await vi.advanceTimersByTimeAsync(SESSION_CHECK_MS);
      expect(expiringStream.aborted).toBe(true);
      expect(revokedStream.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a stream's signal also ends with its request", () => {
    const { store } = setup();
    const request = new AbortController();
    const stream = store.untilEnded("some-session", request.signal);
    request.abort();
    expect(stream.aborted).toBe(true);
  });
});
