import { beforeAll, describe, expect, it } from "vitest";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRepositories, type Repositories } from "@/lib/db/repositories";
import type { RolloutEventRow as EventRow } from "@/lib/db/rollout-events";
import { batchWrites } from "@/lib/recorder/batch-writes";
import { Recorder } from "@/lib/recorder/recorder";
import type { RolloutSampleInput } from "@/lib/rollouts/recorded-sample";
import { createTestDatabase } from "../harness/test-database";

const sample = (name: string, at: Date, over: Partial<RolloutSampleInput> = {}): RolloutSampleInput => ({
  cluster: "prod",
  namespace: "shop",
  name,
  at,
  revision: "2",
  stepIndex: 1,
  totalSteps: 4,
  phase: "Paused",
  message: null,
  requestedWeight: 20,
  canaryWeight: 20,
  stableWeight: 80,
  verified: true,
  maxWeight: 100,
  aborted: false,
  paused: true,
  resourceVersion: "41",
  ...over,
});

const event = (uid: string, lastAt: Date, count = 1): EventRow => ({
  cluster: "prod",
  namespace: "shop",
  rollout: "checkout",
  eventUid: uid,
  type: "Normal",
  reason: "RolloutStepCompleted",
  message: `Rollout step 1/4 completed (count ${count})`,
  count,
  firstAt: new Date("2026-11-01T10:00:00Z"),
  lastAt,
});

let db: PrismaClient;
let repos: Repositories;

beforeAll(async () => {
  await createTestDatabase();
  db = createDbClient();
  repos = createRepositories(db);
});

describe("recorder batch writes", () => {
  it("store rows Prisma reads back with the same types and values", async () => {
    const at = new Date("2026-11-30T03:55:04.123Z");
    await repos.transaction(batchWrites(repos, [sample("checkout", at), sample("cart", at, { verified: null, aborted: true, message: "aborted" })], []));
    const rows = await db.rolloutSample.findMany({ where: { name: { in: ["checkout", "cart"] } }, orderBy: { name: "asc" } });
    expect(rows.map((r) => ({ name: r.name, at: r.at, verified: r.verified, aborted: r.aborted, paused: r.paused, canary: r.canaryWeight, message: r.message }))).toEqual([
      { name: "cart", at, verified: null, aborted: true, paused: true, canary: 20, message: "aborted" },
      { name: "checkout", at, verified: true, aborted: false, paused: true, canary: 20, message: null },
    ]);
    // Date filters compare the stored text: they must agree with rows Prisma wrote itself.
    expect(await db.rolloutSample.count({ where: { at: { gte: at } } })).toBe(2);
    expect(await db.rolloutSample.count({ where: { at: { gt: at } } })).toBe(0);
  });

  it("keep the order of a large flush", async () => {
    const base = Date.parse("2026-11-30T04:00:00Z");
    const many = Array.from({ length: 1_234 }, (_, i) => sample("bulk", new Date(base + i * 1000), { resourceVersion: String(1000 + i) }));
    await repos.transaction(batchWrites(repos, many, []));
    const rows = await db.rolloutSample.findMany({ where: { name: "bulk" }, orderBy: { id: "asc" } });
    expect(rows).toHaveLength(1_234);
    expect(rows.map((r) => r.resourceVersion)).toEqual(many.map((s) => s.resourceVersion));
  });

  it("store a state once: a second write of the same Rollout and resourceVersion (another replica's) is skipped", async () => {
    const at = new Date("2026-11-30T04:30:00Z");
    const states = [sample("twice", at, { resourceVersion: "71" }), sample("twice", new Date(at.getTime() + 1000), { resourceVersion: "72", stepIndex: 2 })];
    await repos.transaction(batchWrites(repos, states.slice(0, 1), []));
    await repos.transaction(batchWrites(repos, states, []));
    const rows = await db.rolloutSample.findMany({ where: { name: "twice" }, orderBy: { id: "asc" } });
    expect(rows.map((r) => [r.resourceVersion, r.stepIndex])).toEqual([
      ["71", 1],
      ["72", 2],
    ]);
  });

  it("update an event seen again (count, last time, message) instead of storing it twice", async () => {
    await repos.transaction(batchWrites(repos, [], [event("uid-1", new Date("2026-11-30T05:00:00Z"))]));
    await repos.transaction(batchWrites(repos, [], [event("uid-1", new Date("2026-11-30T05:10:00Z"), 3), event("uid-2", new Date("2026-11-30T05:10:00Z"))]));
    const rows = await db.rolloutEvent.findMany({ where: { eventUid: { in: ["uid-1", "uid-2"] } }, orderBy: { eventUid: "asc" } });
    expect(rows.map((r) => [r.eventUid, r.count, r.lastAt.toISOString(), r.message])).toEqual([
      ["uid-1", 3, "2026-11-30T05:10:00.000Z", "Rollout step 1/4 completed (count 3)"],
      ["uid-2", 1, "2026-11-30T05:10:00.000Z", "Rollout step 1/4 completed (count 1)"],
    ]);
  });

  it("are pruned by the retention like any other row", async () => {
    await repos.transaction(batchWrites(repos, [sample("old", new Date("2026-01-01T00:00:00Z"))], [event("uid-old", new Date("2026-01-01T00:00:00Z"))]));
    const pruned = await new Recorder({ retentionDays: 30 }, repos).prune(new Date("2026-11-30T12:00:00Z"));
    expect(pruned).toEqual({ samples: 1, events: 1 });
    expect(await db.rolloutSample.count({ where: { name: "old" } })).toBe(0);
    expect(await db.rolloutEvent.count({ where: { eventUid: "uid-2" } })).toBe(1);
  });
});
