import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "@/test/harness/test-database";
import { rollscopeConfigSchema } from "@/lib/config/schema";
import { createDbClient } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { createRepositories } from "@/lib/db/repositories";
import { pruneAuditLog } from "@/lib/server/housekeeping";

/*
 * Issue 30, item 5: the audit log was never pruned. The housekeeping deletes entries older than audit.retentionDays,
 * never one younger, and never a pending one (its outcome is still to come).
 */

const DAY_MS = 24 * 3600_000;
const NOW = Date.parse("2026-12-02T12:00:00Z");
let db: PrismaClient;

beforeAll(() => {
  db = createDbClient(createMigratedDatabase());
});

afterAll(async () => {
  await db?.$disconnect();
});

async function entryAged(days: number, outcome: string): Promise<number> {
  const row = await db.auditEntry.create({
    data: {
      at: new Date(NOW - days * DAY_MS),
      user: "alice",
      groups: "[]",
      cluster: "prod",
      namespace: "shop",
      rollout: "checkout",
      action: "promote",
      before: "null",
      outcome,
      message: null,
      requestId: `r-${days}-${outcome}`,
    },
  });
  return row.id;
}

describe("audit log retention", () => {
  it("deletes entries older than audit.retentionDays and keeps every younger one (and a pending one)", async () => {
    const config = rollscopeConfigSchema.parse({ clusters: [{ name: "prod", inCluster: true }], audit: { retentionDays: 30 } });
    expect(rollscopeConfigSchema.parse({ clusters: [{ name: "prod", inCluster: true }] }).audit.retentionDays).toBe(400);
    const kept = [await entryAged(0, "done"), await entryAged(29.9, "denied"), await entryAged(45, "pending")];
    const old = [await entryAged(30.1, "done"), await entryAged(400, "stale")];
    await pruneAuditLog({ config, repos: createRepositories(db), now: () => NOW });
    const left = (await db.auditEntry.findMany({ select: { id: true } })).map((r) => r.id);
    expect(left.sort()).toEqual(kept.sort());
    for (const id of old) expect(left).not.toContain(id);
  });
});
