import "server-only";
import type { AppContext } from "./app-context";

/**
 * Longer than any action can take (at most three cluster requests of 15 s each, after the intent is written), so
 * an entry pending this long has no live server left to settle it, on this replica or another.
 */
const INTERRUPTED_AFTER_MS = 5 * 60_000;
const INTERRUPTED_MESSAGE =
  "outcome unknown (interrupted): the server stopped after recording the intent and before the cluster's answer; the requests may or may not have been applied — check the Rollout";
/** Ended sessions are kept this long (who was signed in, and when they signed out), then deleted. */
const ENDED_SESSIONS_KEPT_MS = 7 * 24 * 3600_000;
const EVERY_MS = 60_000;

/** Marks the audit entries whose action was interrupted (a crash between intent and outcome). */
async function markInterruptedActions(app: AppContext): Promise<void> {
  try {
    const count = await app.repos.auditEntries.markInterrupted(new Date(app.now() - INTERRUPTED_AFTER_MS), INTERRUPTED_MESSAGE);
    if (count > 0)
      console.warn(`[audit] ${count} action(s) pending since before the last stop marked interrupted: their outcome is unknown`);
  } catch (err) {
    console.error("[audit] could not mark interrupted actions (will retry)", err);
  }
}

/** Deletes the audit entries older than audit.retentionDays: an entry is kept at least that long, never less. */
export async function pruneAuditLog(app: Pick<AppContext, "config" | "repos" | "now">): Promise<void> {
  try {
    const count = await app.repos.auditEntries.deleteOlderThan(new Date(app.now() - app.config.audit.retentionDays * 24 * 3600_000));
    if (count > 0) console.log(`[audit] ${count} entries older than ${app.config.audit.retentionDays} days deleted (audit.retentionDays)`);
  } catch (err) {
    console.error("[audit] could not delete entries past the retention (will retry)", err);
  }
}

async function deleteEndedSessions(app: AppContext): Promise<void> {
  try {
    await app.repos.sessions.deleteEnded(new Date(app.now() - ENDED_SESSIONS_KEPT_MS));
  } catch (err) {
    console.error("[session] could not delete ended sessions (will retry)", err);
  }
}

/** Runs the database housekeeping (interrupted actions, ended sessions, the audit log's retention) now and every minute. */
export function startHousekeeping(app: AppContext): () => void {
  const run = () =>
    void markInterruptedActions(app)
      .then(() => deleteEndedSessions(app))
      .then(() => pruneAuditLog(app));
  run();
  const timer = setInterval(run, EVERY_MS).unref();
  return () => clearInterval(timer);
}
