import { describe, expect, it } from "vitest";
import type { MigrationStatus } from "@/lib/db/schema-migrations";
import type { AppContext } from "@/lib/server/app-context";
import { checkReadiness } from "./readiness";

const RECORDER = { state: "failing", lastError: "SQLITE_FULL: database or disk is full" };
const LEADERSHIP = { mode: "postgres-advisory-lock", role: "standby", since: "2026-12-01T15:00:00.000Z", lastError: null };

const CLUSTERS = [
  { name: "prod", connection: "connected", since: "2026-12-01T10:00:00.000Z", error: null },
  { name: "edge", connection: "unreachable", since: "2026-12-01T10:01:00.000Z", error: "connect ECONNREFUSED 10.0.0.7:6443" },
];

function appWith(schema: { ping(): Promise<void>; migrationStatus(): Promise<MigrationStatus> }): () => AppContext {
  return () =>
    ({
      repos: { schema },
      recorder: { status: () => RECORDER },
      fleet: { clusterStates: () => CLUSTERS },
      leadership: { status: () => LEADERSHIP },
    }) as unknown as AppContext;
}

const reachable = async () => {};
const migrated = async (): Promise<MigrationStatus> => ({ pending: [], failed: [] });

describe("checkReadiness", () => {
  it("is ready with the database reachable and migrated, and reports a failing recorder without becoming unready", async () => {
    const report = await checkReadiness(appWith({ ping: reachable, migrationStatus: migrated }));
    expect(report).toMatchObject({
      ready: true,
      checks: { config: { ok: true }, database: { ok: true }, migrations: { ok: true } },
      recorder: RECORDER,
    });
  });

  it("reports each cluster's connection without its error text, and stays ready with a cluster unreachable", async () => {
    const report = await checkReadiness(appWith({ ping: reachable, migrationStatus: migrated }));
    expect(report.ready).toBe(true);
    expect(report.clusters).toStrictEqual([
      { name: "prod", connection: "connected", since: "2026-12-01T10:00:00.000Z" },
      { name: "edge", connection: "unreachable", since: "2026-12-01T10:01:00.000Z" },
    ]);
  });

  it("reports which replica records history without requiring this one to (a standby replica is ready)", async () => {
    const report = await checkReadiness(appWith({ ping: reachable, migrationStatus: migrated }));
    expect(report).toMatchObject({ ready: true, leadership: { mode: "postgres-advisory-lock", role: "standby" } });
  });

  it("is not ready while a shipped migration is not applied, naming it", async () => {
    const report = await checkReadiness(
      appWith({ ping: reachable, migrationStatus: async () => ({ pending: ["20261201000000_audit_intent"], failed: [] }) }),
    );
    expect(report.ready).toBe(false);
    expect(report.checks.migrations.detail).toContain("20261201000000_audit_intent");
  });

  it("is not ready when the database cannot be opened", async () => {
    const report = await checkReadiness(
      appWith({ ping: async () => Promise.reject(new Error("unable to open database file")), migrationStatus: migrated }),
    );
    expect(report).toMatchObject({
      ready: false,
      checks: { database: { ok: false, detail: "unable to open database file" }, migrations: { ok: false } },
    });
  });

  it("says why the database is unreachable without saying where it is (no host, address or port)", async () => {
    const failures = [
      "connect ECONNREFUSED 10.20.30.40:5432",
      "Can't reach database server at `db.internal.example:5432`",
      "getaddrinfo ENOTFOUND db.internal.example",
      'password authentication failed for user "rollscope" (postgresql://rollscope@db.internal.example:5432/rollscope)',
      "connect ECONNREFUSED [fd00::12]:5432",
    ];
    for (const message of failures) {
      const report = await checkReadiness(appWith({ ping: async () => Promise.reject(new Error(message)), migrationStatus: migrated }));
      const detail = report.checks.database.detail ?? "";
      expect(report.ready).toBe(false);
      expect(detail).not.toMatch(/10\.20\.30\.40|db\.internal|5432|fd00/);
      expect(detail).toMatch(/ECONNREFUSED|reach database server|ENOTFOUND|authentication failed/);
    }
  });

  it("is not ready while the start-up warm-up runs, and ready once it is done or has failed (bounded, logged)", async () => {
    const app = appWith({ ping: reachable, migrationStatus: migrated });
    const warming = await checkReadiness(app, { state: "warming", detail: "warming up: rendering the overview once" });
    expect(warming).toMatchObject({ ready: false, checks: { warmUp: { ok: false, detail: "warming up: rendering the overview once" } } });
    expect(await checkReadiness(app, { state: "done", detail: null })).toMatchObject({ ready: true, checks: { warmUp: { ok: true } } });
    expect(await checkReadiness(app, { state: "failed", detail: "GET / answered 500" })).toMatchObject({
      ready: true,
      checks: { warmUp: { ok: true } },
    });
  });

  it("is not ready when the configuration does not load, and says why", async () => {
    const report = await checkReadiness(() => {
      throw new Error("clusters.0.name: Required");
    });
    expect(report).toMatchObject({ ready: false, checks: { config: { ok: false, detail: "clusters.0.name: Required" } }, recorder: null });
  });
});
