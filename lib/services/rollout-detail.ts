import "server-only";
import type { RolloutEventRow } from "@/lib/db/rollout-events";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import { toAnalysisRunViews } from "@/lib/rollouts/analysis-runs";
import type { EventView, HistoryRange, RolloutDetail, RolloutHistory } from "@/lib/rollouts/detail-types";
import { deriveRevisionHistory, deriveTimelineMarkers, toWeightPoints, withoutRevisionStartTransitions } from "@/lib/rollouts/history";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { AppContext } from "@/lib/server/app-context";
import type { InitialRolloutDetail, MeasuredTrafficResponse } from "@/lib/contracts/rollout-detail";
import { getMeasuredTraffic } from "./measured-traffic";
import { listActionMarkers } from "./audit-log";
import { renderTimeOf, withinFirstRender } from "./first-render";
import { rolloutNotFound } from "./rollout-lookup";

const RANGE_MS: Record<HistoryRange, number> = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "6h": 6 * 3_600_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 24 * 3_600_000,
};

const MAX_EVENTS = 100;

function liveEvents(watcher: ClusterWatcher, rollout: { namespace: string; name: string; uid: string | null }): EventView[] {
  return watcher.events(rollout).map((e) => {
    const lastAt = e.lastAt ?? new Date(0).toISOString();
    return { uid: e.uid, type: e.type, reason: e.reason, message: e.message, count: e.count, firstAt: e.firstAt ?? lastAt, lastAt };
  });
}

function storedEventView(e: RolloutEventRow): EventView {
  return {
    uid: e.eventUid,
    type: e.type === "Warning" ? "Warning" : "Normal",
    reason: e.reason,
    message: e.message,
    count: e.count,
    firstAt: e.firstAt.toISOString(),
    lastAt: e.lastAt.toISOString(),
  };
}

/** Events still in the cluster merged with those recorded earlier (the cluster's copy wins), newest first. */
async function listRolloutEvents(
  app: AppContext,
  watcher: ClusterWatcher,
  rollout: RolloutRef & { uid: string | null },
): Promise<EventView[]> {
  const live = liveEvents(watcher, rollout);
  const stored = await app.repos.rolloutEvents.listForRollout(rollout, MAX_EVENTS);
  const byUid = new Map<string, EventView>();
  for (const e of stored) byUid.set(e.eventUid, storedEventView(e));
  for (const e of live) byUid.set(e.uid, e);
  return [...byUid.values()].sort((a, b) => b.lastAt.localeCompare(a.lastAt)).slice(0, MAX_EVENTS);
}

/** The Rollout's page: its live state, events, analysis runs and revisions; 404 when the watch does not show it. */
export async function getRolloutDetailOrThrow(app: AppContext, rollout: RolloutRef): Promise<RolloutDetail> {
  const watcher = app.fleet.clusterOrThrow(rollout.cluster);
  const view = watcher.rollout(rollout.namespace, rollout.name);
  if (!view) throw rolloutNotFound(rollout);
  const object = { ...rollout, uid: view.uid };
  const [events, stored] = await Promise.all([listRolloutEvents(app, watcher, object), app.repos.rolloutSamples.listForRollout(rollout)]);
  const samples = withoutRevisionStartTransitions(stored);
  return {
    rollout: view,
    cluster: watcher.state(),
    events,
    analysisRuns: toAnalysisRunViews(watcher.objects("analysisruns"), object),
    revisions: deriveRevisionHistory(
      samples,
      view.steps.map((s) => s.label),
      new Date(app.now()),
    ),
  };
}

/**
 * The detail for the page's server render, so its first paint shows the Rollout rather than a placeholder: without
 * sign-in only, as the overview's first page (a signed-in user's read scope is the API route's to check). Null when
 * it cannot be had at once — not watched (the browser's read then says 404), or the database slower than a second.
 */
export async function loadInitialRolloutDetail(app: AppContext, rollout: RolloutRef): Promise<InitialRolloutDetail | null> {
  if (app.config.auth.mode !== "none") return null;
  const watcher = app.fleet.cluster(rollout.cluster);
  if (!watcher?.rollout(rollout.namespace, rollout.name)) return null;
  const detail = await withinFirstRender(getRolloutDetailOrThrow(app, rollout), "the rollout detail");
  return detail && { detail, renderedAt: renderTimeOf(app) };
}

/** The weight-shift chart over `range`: recorded points, derived and audited markers (measured traffic has its own). */
export async function getRolloutHistory(
  app: AppContext,
  { range, ...rollout }: RolloutRef & { range: HistoryRange },
): Promise<RolloutHistory> {
  const { cluster, namespace, name } = rollout;
  const view = app.fleet.clusterOrThrow(cluster).rollout(namespace, name);
  const now = new Date(app.now());
  const from = new Date(now.getTime() - RANGE_MS[range]);
  const [stored, actionMarkers] = await Promise.all([
    app.repos.rolloutSamples.listForRollout(rollout, from),
    listActionMarkers(app, { ...rollout, from }),
  ]);
  const samples = withoutRevisionStartTransitions(stored);
  if (!view && samples.length === 0) throw rolloutNotFound(rollout);
  const labels = view?.steps.map((s) => s.label) ?? [];
  const markers = [...deriveTimelineMarkers(samples, labels).filter((m) => m.at >= from.toISOString()), ...actionMarkers];
  return {
    range,
    from: from.toISOString(),
    to: now.toISOString(),
    points: toWeightPoints(samples),
    // Audited actions ("promote by alice") sit beside the derived ones; a stable sort keeps same-instant order.
    markers: markers.sort((a, b) => a.at.localeCompare(b.at)),
  };
}

/**
 * Measured canary share over `range`, from the cluster's Prometheus: a query of its own, slower and refreshed less
 * often than the recorded history.
 */
export async function getRolloutMeasuredTraffic(
  app: AppContext,
  { range, ...rollout }: RolloutRef & { range: HistoryRange },
): Promise<MeasuredTrafficResponse> {
  const watcher = app.fleet.clusterOrThrow(rollout.cluster);
  if (!watcher.rollout(rollout.namespace, rollout.name)) throw rolloutNotFound(rollout);
  const toMs = app.now();
  const fromMs = toMs - RANGE_MS[range];
  const measured = await getMeasuredTraffic(app, { ...rollout, fromMs, toMs });
  return { measured, from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString() };
}
