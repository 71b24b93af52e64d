import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingWrite } from "@/lib/db/pending-write";
import type { RecorderLeadership } from "@/lib/db/recorder-leadership";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import { buildFleetRollout } from "@/lib/fleet/cluster-watcher";
import type { Fleet, FleetListener } from "@/lib/fleet/fleet";
import { rolloutKey } from "@/lib/fleet/types";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import type { RecorderStore } from "./batch-writes";
import { MAX_ROWS_PER_WRITE, WRITE_TURN_MS, Recorder } from "./recorder";
import { toRolloutSample, type RolloutSampleInput } from "@/lib/rollouts/recorded-sample";

/** The checkout fixture built into a view once per step: YAML and the full parser cost milliseconds; tests use thousands. */
const builtAtStep = new Map<number, FleetRollout>();

/** The checkout fixture paused at `step` (each step a different recorded state), under the name `name`. */
function rolloutAt(name: string, step: number): FleetRollout {
  let built = builtAtStep.get(step);
  if (!built) {
    const obj = readRolloutFixture("indefinite-pause") as { metadata: Record<string, unknown>; status: Record<string, unknown> };
    obj.metadata = { ...obj.metadata, resourceVersion: String(step) };
    obj.status = { ...obj.status, currentStepIndex: step };
    built = buildFleetRollout("prod", obj, new Date());
    builtAtStep.set(step, built);
  }
  return { ...built, name, key: rolloutKey(built.cluster, built.namespace, name) };
}

/** A fleet double: rollouts its watches already listed, and a way to emit later changes. */
function fakeFleet(listed: FleetRollout[] = []) {
  const listeners = new Set<FleetListener>();
  const fleet = {
    clusters: [],
    rollouts: () => listed,
    subscribe: (l: FleetListener) => (listeners.add(l), () => listeners.delete(l)),
    subscribeEvents: () => () => {},
  } as unknown as Fleet;
  const change = (rollout: FleetRollout) => {
    for (const l of listeners) l({ type: "upsert", rollout });
  };
  return { fleet, change };
}

/** A store double whose transactions fail while `failing` is set, with SQLite's error as Prisma's adapter wraps it. */
function fakeStore(latest: RolloutSampleInput[] = []) {
  const written: string[] = [];
  /** The samples each committed transaction carried. */
  const transactions: number[] = [];
  const state = { failing: false, writeMs: 0 };
  const store: RecorderStore = {
    rolloutSamples: {
      insertMany: (samples: readonly RolloutSampleInput[]) => [{ samples } as unknown as PendingWrite],
      listLatestPerRollout: async () => latest,
      deleteBefore: async () => 0,
    } as unknown as RecorderStore["rolloutSamples"],
    rolloutEvents: {
      upsertMany: (events: readonly RolloutEventRow[]) => ({ events }) as unknown as PendingWrite,
      deleteBefore: async () => 0,
    } as unknown as RecorderStore["rolloutEvents"],
    async transaction(writes) {
      if (state.failing)
        throw Object.assign(new Error("SocketTimeout"), {
          cause: { originalCode: "SQLITE_FULL", originalMessage: "database or disk is full" },
        });
      if (state.writeMs > 0) await new Promise((resolve) => setTimeout(resolve, state.writeMs));
      const rows = (writes as unknown as Array<{ samples?: RolloutSampleInput[] }>).flatMap((write) => write.samples ?? []);
      for (const s of rows) written.push(`${s.name}@${s.stepIndex}`);
      transactions.push(rows.length);
    },
  };
  return { store, written, state, transactions };
}

/** A leadership double another replica holds until `take()`. */
function standbyLeadership() {
  const state = { leader: false };
  const leadership = {
    isLeader: () => state.leader,
    anotherLeads: () => !state.leader,
    onChange: () => () => {},
    status: () => ({ mode: "postgres-advisory-lock", role: state.leader ? "leader" : "standby", since: "", lastError: null }),
    start: () => {},
    stop: async () => {},
  } as RecorderLeadership;
  return { leadership, take: () => (state.leader = true) };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, "error").mockImplementation(() => {});
  vi.spyOn(console, "info").mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("Recorder", () => {
  it("keeps the rows of failed writes, retries with backoff, reports failing, then stores them in order", async () => {
    const { fleet, change } = fakeFleet();
    const { store, written, state } = fakeStore();
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100, retryDelayMs: 1_000, maxRetryDelayMs: 4_000 }, store);
    await recorder.start(fleet);
    expect(recorder.status().state).toBe("recording");

    state.failing = true;
    change(rolloutAt("a", 1));
    await vi.advanceTimersByTimeAsync(100);
    expect(recorder.status()).toMatchObject({
      state: "failing",
      lastError: "SQLITE_FULL: database or disk is full",
      failedAttempts: 1,
      pending: { samples: 1, events: 0 },
    });
    change(rolloutAt("a", 3));
    // Backoff: 1 s, 2 s, then 4 s between attempts, not one every tick.
    await vi.advanceTimersByTimeAsync(3_100);
    expect(recorder.status().failedAttempts).toBe(3);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(recorder.status().failedAttempts).toBe(3);

    state.failing = false;
    change(rolloutAt("a", 5));
    await vi.advanceTimersByTimeAsync(4_000);
    expect(written).toEqual(["a@1", "a@3", "a@5"]);
    expect(recorder.status()).toMatchObject({
      state: "recording",
      lastError: null,
      failedAttempts: 0,
      pending: { samples: 0, events: 0 },
      dropped: { samples: 0, events: 0 },
    });
    await recorder.stop();
  });

  it("bounds what waits in memory: the oldest rows are dropped and counted, the newest state is kept", async () => {
    const { fleet, change } = fakeFleet();
    const { store, written, state } = fakeStore();
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100, retryDelayMs: 1_000, maxPendingSamples: 3 }, store);
    await recorder.start(fleet);
    state.failing = true;
    for (const step of [1, 3, 5, 7, 9]) change(rolloutAt("a", step));
    await vi.advanceTimersByTimeAsync(100);
    expect(recorder.status()).toMatchObject({ pending: { samples: 3 }, dropped: { samples: 2, events: 0 } });

    state.failing = false;
    await vi.advanceTimersByTimeAsync(1_100);
    expect(written).toEqual(["a@5", "a@7", "a@9"]);
    // The loss stays visible after the recovery.
    expect(recorder.status()).toMatchObject({ state: "recording", dropped: { samples: 2, events: 0 } });
    await recorder.stop();
  });

  it("drops nothing while the database works, however long a write takes (a large fleet's start-up)", async () => {
    const { fleet, change } = fakeFleet();
    const { store, written, state } = fakeStore();
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100, maxPendingSamples: 3 }, store);
    await recorder.start(fleet);
    state.writeMs = 1_000;
    change(rolloutAt("a", 1));
    await vi.advanceTimersByTimeAsync(100); // the write of a@1 begins and takes a second
    for (const step of [3, 5, 7, 9, 11]) change(rolloutAt("a", step));
    await vi.advanceTimersByTimeAsync(500);
    expect(recorder.status()).toMatchObject({ state: "recording", pending: { samples: 5 }, dropped: { samples: 0, events: 0 } });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(written).toEqual(["a@1", "a@3", "a@5", "a@7", "a@9", "a@11"]);
    expect(recorder.status()).toMatchObject({ pending: { samples: 0 }, dropped: { samples: 0, events: 0 } });
    await recorder.stop();
  });

  it("writes a large backlog in transactions of a bounded size, in order", async () => {
    const listed = Array.from({ length: MAX_ROWS_PER_WRITE * 2 + 123 }, (_, i) => rolloutAt(`r${i}`, 1));
    const { fleet } = fakeFleet(listed);
    const { store, written, transactions } = fakeStore();
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100 }, store);
    await recorder.start(fleet);
    // The first flush at 100 ms; the next transactions each after a turn of the event loop.
    await vi.advanceTimersByTimeAsync(150);
    expect(transactions).toEqual([MAX_ROWS_PER_WRITE, MAX_ROWS_PER_WRITE, 123]);
    expect(written).toEqual(listed.map((r) => `${r.name}@1`));
    expect(recorder.status().pending).toEqual({ samples: 0, events: 0 });
    await recorder.stop();
  });

  it("lets the event loop take its timers after each WRITE_TURN_MS of writing a backlog (a database that answers at once)", async () => {
    const listed = Array.from({ length: MAX_ROWS_PER_WRITE * 4 + 1 }, (_, i) => rolloutAt(`r${i}`, 1));
    const { fleet } = fakeFleet(listed);
    const { store, transactions } = fakeStore();
    // Each transaction holds the thread for 40 % of a turn, as SQLite does, and lets nothing else run meanwhile.
    let clock = 1_000_000;
    // What a timer due meanwhile saw: how many transactions had committed when it ran.
    const seenByTimers: number[] = [];
    const inner = store.transaction.bind(store);
    store.transaction = async (writes) => {
      await inner(writes);
      clock += WRITE_TURN_MS * 0.4;
      setTimeout(() => seenByTimers.push(transactions.length), 0);
    };
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100, now: () => clock }, store);
    await recorder.start(fleet);
    await vi.advanceTimersByTimeAsync(150);
    expect(transactions).toEqual([MAX_ROWS_PER_WRITE, MAX_ROWS_PER_WRITE, MAX_ROWS_PER_WRITE, MAX_ROWS_PER_WRITE, 1]);
    // Three transactions (120 % of a turn) back to back, then the timers ran; then the last two.
    expect(seenByTimers.slice(0, 3)).toEqual([3, 3, 3]);
    expect(seenByTimers.slice(3)).toEqual([5, 5]);
    await recorder.stop();
  });

  it("records the state the watches listed before it started, where it differs from the newest stored one", async () => {
    const unchanged = rolloutAt("unchanged", 1);
    const { fleet } = fakeFleet([rolloutAt("moved", 3), unchanged, rolloutAt("new", 1)]);
    const stored = [toRolloutSample(rolloutAt("moved", 1), new Date()), toRolloutSample(unchanged, new Date())];
    const { store, written } = fakeStore(stored);
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100 }, store);
    await recorder.start(fleet);
    await vi.advanceTimersByTimeAsync(100);
    expect(written).toEqual(["moved@3", "new@1"]);
    await recorder.stop();
  });

  it("reports failing while the stored states cannot be read at start-up, and starts once they can", async () => {
    const { fleet } = fakeFleet([rolloutAt("a", 1)]);
    const { store, written } = fakeStore();
    let unreadable = true;
    const read = store.rolloutSamples.listLatestPerRollout;
    store.rolloutSamples.listLatestPerRollout = async () => {
      if (unreadable) throw new Error("SQLITE_CANTOPEN: unable to open database file");
      return read();
    };
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100, retryDelayMs: 1_000 }, store);
    await recorder.start(fleet);
    expect(recorder.status()).toMatchObject({ state: "failing", lastError: "SQLITE_CANTOPEN: unable to open database file" });

    unreadable = false;
    await vi.advanceTimersByTimeAsync(1_100);
    await vi.advanceTimersByTimeAsync(100);
    expect(recorder.status().state).toBe("recording");
    expect(written).toEqual(["a@1"]);
    await recorder.stop();
  });

  it("on a standby replica writes nothing, and on taking over stores what it observed after the newest stored state", async () => {
    const { fleet, change } = fakeFleet([rolloutAt("a", 1)]);
    const { store, written } = fakeStore();
    const { leadership, take } = standbyLeadership();
    const recorder = new Recorder({ retentionDays: 30, flushIntervalMs: 100, leadership }, store);
    await recorder.start(fleet);
    for (const step of [3, 5, 7]) change(rolloutAt("a", step));
    await vi.advanceTimersByTimeAsync(500);
    expect(written).toEqual([]);
    expect(recorder.status()).toMatchObject({ state: "standby", pending: { samples: 4 } });

    // The old leader stored up to step 3 and died; steps 5 and 7 are this replica's to store.
    store.rolloutSamples.listLatestPerRollout = async () => [toRolloutSample(rolloutAt("a", 3), new Date())];
    take();
    await vi.advanceTimersByTimeAsync(300);
    expect(written).toEqual(["a@5", "a@7"]);
    expect(recorder.status().state).toBe("recording");
    await recorder.stop();
  });
});
