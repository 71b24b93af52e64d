import "server-only";
import type { ReadinessCheck, ReadinessReport } from "@/lib/contracts/readiness";
import { readDemoTimeScale } from "@/lib/config/demo-time-scale";
import { describeErrorSafely } from "@/lib/errors/known-secrets";
import type { AppContext } from "@/lib/server/app-context";
import type { WarmUpStatus } from "@/lib/server/warm-up";

const ok: ReadinessCheck = { ok: true, detail: null };
const notOk = (detail: string): ReadinessCheck => ({ ok: false, detail });

/** Not ready while the start-up warm-up runs; a failed one (bounded, logged) does not hold readiness. */
function checkWarmUp(warmUp: WarmUpStatus): ReadinessCheck {
  return warmUp.state === "warming" ? notOk(warmUp.detail ?? "warming up") : ok;
}

/**
 * A database error without where the database is: URLs, `host:port`, addresses and unresolved names are replaced,
 * so the reason (refused, timed out, authentication failed) is shown and the network layout is not.
 */
function redactDatabaseError(text: string): string {
  return text
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, "<address>")
    .replace(/\[[0-9a-f:.]+\](:\d+)?/gi, "<address>")
    .replace(/\b[\w.-]+:\d{1,5}\b/g, "<address>")
    .replace(/\b\d{1,3}(\.\d{1,3}){3}\b/g, "<address>")
    .replace(/\b(ENOTFOUND|EAI_AGAIN)\s+[\w.-]+/g, "$1 <address>")
    .replace(/(server at|host) [`"']?[\w.-]+[`"']?/gi, "$1 <address>");
}

const describeDatabaseError = (err: unknown) => redactDatabaseError(describeErrorSafely(err));

async function checkDatabase(app: AppContext): Promise<ReadinessCheck> {
  try {
    await app.repos.schema.ping();
    return ok;
  } catch (err) {
    return notOk(describeDatabaseError(err));
  }
}

async function checkMigrations(app: AppContext): Promise<ReadinessCheck> {
  try {
    const { pending, failed } = await app.repos.schema.migrationStatus();
    if (failed.length > 0) return notOk(`failed migrations: ${failed.join(", ")}`);
    if (pending.length > 0) return notOk(`migrations not applied: ${pending.join(", ")} (run \`npx prisma migrate deploy\`)`);
    return ok;
  } catch (err) {
    return notOk(describeDatabaseError(err));
  }
}

/**
 * GET /api/readyz. Takes the way to the app context rather than the context: "is the configuration loaded" is the
 * question whether that context can be built at all. `warmUp`: the process's start-up warm-up (lib/server/warm-up).
 */
export async function checkReadiness(
  loadApp: () => AppContext,
  warmUp: WarmUpStatus = { state: "idle", detail: null },
): Promise<ReadinessReport> {
  let app: AppContext;
  try {
    app = loadApp();
  } catch (err) {
    const skipped = notOk("configuration not loaded");
    return {
      ready: false,
      checks: { config: notOk(describeErrorSafely(err)), database: skipped, migrations: skipped, warmUp: checkWarmUp(warmUp) },
      recorder: null,
      clusters: null,
      leadership: null,
    };
  }
  const database = await checkDatabase(app);
  const migrations = database.ok ? await checkMigrations(app) : notOk("database unreachable");
  const clusters = app.fleet.clusterStates().map(({ name, connection, since }) => ({ name, connection, since }));
  const timeScale = readDemoTimeScale();
  const warm = checkWarmUp(warmUp);
  return {
    ready: database.ok && migrations.ok && warm.ok,
    checks: { config: ok, database, migrations, warmUp: warm },
    recorder: app.recorder.status(),
    clusters,
    leadership: app.leadership.status(),
    ...(timeScale === null ? {} : { simulatedTimeScale: timeScale }),
  };
}
