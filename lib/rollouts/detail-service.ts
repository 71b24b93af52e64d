import "server-only";
import { listActionMarkers } from "@/lib/audit/service";
import { getDb } from "@/lib/db/client";
import { getFleet } from "@/lib/fleet/fleet";
import { getMeasuredTraffic } from "@/lib/services/measured-traffic";
import { getAppContext } from "@/lib/server/app-context";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import { ApiError } from "@/lib/errors/api-error";
import { toAnalysisRunViews } from "./analysis-runs";
import type { EventView, HistoryRange, RolloutDetail, RolloutHistory } from "./detail-types";
import { parseKubeEvent } from "./event-schema";
import { deriveRevisionHistory, deriveTimelineMarkers, toWeightPoints, type StoredSample } from "./history";

const RANGE_MS: Record<HistoryRange, number> = {
  "15m": 15 * 60_000,
  "1h": 3_600_000,
  "6h": 6 * 3_600_000,
  "24h": 24 * 3_600_000,
  "7d": 7 * 24 * 3_600_000,
};

function clusterOrThrow(cluster: string): ClusterWatcher {
  const watcher = getFleet().cluster(cluster);
  if (!watcher) throw new ApiError("not_found", `no cluster named "${cluster}" is configured`);
  return watcher;
}

function liveEvents(watcher: ClusterWatcher, namespace: string, name: string): EventView[] {
  const views: EventView[] = [];
  for (const obj of watcher.objects("events")) {
    const parsed = parseKubeEvent(obj);
    if (!parsed.ok) continue;
    const e = parsed.event;
    if (e.involvedObject.kind !== "Rollout" || e.involvedObject.name !== name || (e.involvedObject.namespace ?? e.metadata?.namespace) !== namespace) continue;
    const last = e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? new Date(0).toISOString();
    views.push({
      uid: e.metadata?.uid ?? `${e.metadata?.name}`,
      type: e.type === "Warning" ? "Warning" : "Normal",
      reason: e.reason ?? "",
      message: e.message ?? "",
      count: e.count ?? 1,
      firstAt: e.firstTimestamp ?? e.eventTime ?? last,
      lastAt: last,
    });
  }
  return views;
}

/** Events still in the cluster merged with those recorded earlier (the cluster's copy wins), newest first. */
async function listRolloutEvents(watcher: ClusterWatcher, namespace: string, name: string): Promise<EventView[]> {
  const live = liveEvents(watcher, namespace, name);
  const stored = await getDb().rolloutEvent.findMany({
    where: { cluster: watcher.name, namespace, rollout: name },
    orderBy: { lastAt: "desc" },
    take: 100,
  });
  const byUid = new Map<string, EventView>();
  for (const e of stored) {
    byUid.set(e.eventUid, {
      uid: e.eventUid,
      type: e.type === "Warning" ? "Warning" : "Normal",
      reason: e.reason,
      message: e.message,
      count: e.count,
      firstAt: e.firstAt.toISOString(),
      lastAt: e.lastAt.toISOString(),
    });
  }
  for (const e of live) byUid.set(e.uid, e);
  return [...byUid.values()].sort((a, b) => b.lastAt.localeCompare(a.lastAt)).slice(0, 100);
}

async function loadSamples(cluster: string, namespace: string, name: string, from?: Date): Promise<StoredSample[]> {
  const db = getDb();
  const where = { cluster, namespace, name };
  const rows = await db.rolloutSample.findMany({
    where: from ? { ...where, at: { gte: from } } : where,
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  if (!from) return rows;
  // The state in force when the range starts, so the chart's lines begin at its left edge.
  const before = await db.rolloutSample.findFirst({ where: { ...where, at: { lt: from } }, orderBy: [{ at: "desc" }, { id: "desc" }] });
  return before ? [before, ...rows] : rows;
}

export async function getRolloutDetailOrThrow(cluster: string, namespace: string, name: string): Promise<RolloutDetail> {
  const watcher = clusterOrThrow(cluster);
  const rollout = watcher.rollout(namespace, name);
  if (!rollout) throw new ApiError("not_found", `Rollout ${namespace}/${name} not found in cluster ${cluster}`);
  const [events, samples] = await Promise.all([listRolloutEvents(watcher, namespace, name), loadSamples(cluster, namespace, name)]);
  return {
    rollout,
    cluster: watcher.state(),
    events,
    analysisRuns: toAnalysisRunViews(watcher.objects("analysisruns"), name),
    revisions: deriveRevisionHistory(samples, rollout.steps.map((s) => s.label), new Date()),
  };
}

export async function getRolloutHistory(cluster: string, namespace: string, name: string, range: HistoryRange, now = new Date()): Promise<RolloutHistory> {
  const watcher = clusterOrThrow(cluster);
  const rollout = watcher.rollout(namespace, name);
  const from = new Date(now.getTime() - RANGE_MS[range]);
  const [samples, actionMarkers] = await Promise.all([loadSamples(cluster, namespace, name, from), listActionMarkers(cluster, namespace, name, from)]);
  if (!rollout && samples.length === 0) throw new ApiError("not_found", `Rollout ${namespace}/${name} not found in cluster ${cluster}`);
  const labels = rollout?.steps.map((s) => s.label) ?? [];
  const markers = [...deriveTimelineMarkers(samples, labels).filter((m) => m.at >= from.toISOString()), ...actionMarkers];
  return {
    range,
    from: from.toISOString(),
    to: now.toISOString(),
    points: toWeightPoints(samples),
    // Audited actions ("promote by alice") sit beside the derived ones; a stable sort keeps same-instant order.
    markers: markers.sort((a, b) => a.at.localeCompare(b.at)),
    measured: rollout ? await getMeasuredTraffic(getAppContext(), { cluster, namespace, name, fromMs: from.getTime(), toMs: now.getTime() }) : null,
  };
}
