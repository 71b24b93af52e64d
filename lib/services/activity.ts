import "server-only";
import { activityToCsv, buildActivityTimeline, type ActivityAction, type ActivityEvent } from "@/lib/activity/timeline";
import { AuditQuery } from "@/lib/audit/schema";
import { canReadNamespace } from "@/lib/auth/read-scope";
import type { AuthUser } from "@/lib/auth/types";
import { ACTIVITY_WINDOWS, type ActivityPage, type ActivityQuery } from "@/lib/contracts/activity";
import type { AppContext } from "@/lib/server/app-context";
import { resolveReadScope } from "./read-scope";

/** Stored states, events and actions read per window: a day of a busy fleet, well past what a page shows. */
const MAX_SAMPLES = 20_000;
const MAX_EVENTS = 5_000;
const MAX_ACTIONS = 2_000;
/** Changes one answer carries, newest first. */
const MAX_ITEMS = 1_000;
/** The component that writes Argo Rollouts' own Events (`record.NewEventRecorder(..., "rollouts-controller")`). */
const CONTROLLER_EVENT_SOURCE = "rollouts-controller";

/**
 * Every change of every Rollout the user may read in the window, newest first: the recorder's stored states and
 * Events, and the actions taken through Rollscope, each with who made it where that can be known.
 */
export async function listActivity(app: AppContext, { user, query }: { user: AuthUser; query: ActivityQuery }): Promise<ActivityPage> {
  const to = new Date(app.now());
  const from = new Date(to.getTime() - ACTIVITY_WINDOWS[query.window] * 60_000);
  const [scope, recorded, events, done] = await Promise.all([
    resolveReadScope(app, user),
    app.repos.rolloutSamples.listChangesBetween(from, to, MAX_SAMPLES),
    app.repos.rolloutEvents.listBetween(from, to, MAX_EVENTS),
    app.repos.auditEntries.list(
      AuditQuery.parse({ outcome: "done", from: new Date(from.getTime() - 60_000).toISOString(), to: to.toISOString() }),
      MAX_ACTIONS,
    ),
  ]);
  const wanted = (cluster: string, namespace: string) =>
    canReadNamespace(scope, cluster, namespace) &&
    (query.cluster === undefined || query.cluster === cluster) &&
    (query.namespace === undefined || query.namespace === namespace);
  const activityEvents: ActivityEvent[] = events
    .filter((e) => wanted(e.cluster, e.namespace))
    .map((e) => ({ ...e, source: CONTROLLER_EVENT_SOURCE }));
  const actions: ActivityAction[] = done.filter((a) => wanted(a.cluster, a.namespace));
  const items = buildActivityTimeline({
    rollouts: recorded.filter((r) => wanted(r.cluster, r.namespace)),
    events: activityEvents,
    actions,
    from,
    to,
  }).filter((item) => query.kind === undefined || item.kind === query.kind);
  return { items: items.slice(0, MAX_ITEMS), from: from.toISOString(), to: to.toISOString(), truncated: items.length > MAX_ITEMS };
}

/** The same changes as a CSV download. */
export async function exportActivity(
  app: AppContext,
  input: { user: AuthUser; query: ActivityQuery },
): Promise<{ body: string; filename: string }> {
  const page = await listActivity(app, input);
  const stamp = page.to.replace(/[:.]/g, "-");
  return { body: activityToCsv(page.items), filename: `rollscope-activity-${stamp}.csv` };
}
