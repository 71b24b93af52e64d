import { csvCell } from "@/lib/audit/csv";
import { CONTROLLER_FIELD_MANAGER } from "@/lib/rollouts/field-manager";
import type { StoredSample } from "@/lib/rollouts/history";
import { formatStepPosition } from "@/lib/rollouts/step-position";

/** The kinds of change the activity timeline tells apart (and filters by). */
export const ACTIVITY_KINDS = [
  "update",
  "phase",
  "step",
  "pause",
  "resume",
  "abort",
  "promote",
  "retry",
  "undo",
  "analysis",
  "other",
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/**
 * Who made a change, as far as it can be known: a Rollscope user (the audit log), the Kubernetes field manager that
 * wrote it, or the component that reported it in an Event.
 */
export interface ActivityActor {
  name: string;
  via: "rollscope" | "field-manager" | "event";
}

export interface ActivityItem {
  /** Stable across refreshes: the source and its own key. */
  id: string;
  at: string;
  cluster: string;
  namespace: string;
  rollout: string;
  kind: ActivityKind;
  summary: string;
  /** The Event's or the Rollout's message that came with the change. */
  detail: string | null;
  actor: ActivityActor | null;
}

export interface RecordedRollout {
  cluster: string;
  namespace: string;
  name: string;
  /** Time-ordered; the first may be the state in force before the window (it changes nothing by itself). */
  samples: readonly StoredSample[];
}

export interface ActivityEvent {
  cluster: string;
  namespace: string;
  rollout: string;
  eventUid: string;
  type: string;
  reason: string;
  message: string;
  lastAt: Date;
  /** The Event's `source.component` (or reportingController) when known. */
  source: string | null;
}

/** An action taken through Rollscope that went through (audit outcome done). */
export interface ActivityAction {
  id: number;
  at: string;
  user: string;
  cluster: string;
  namespace: string;
  rollout: string;
  action: string;
  message: string | null;
}

const ACTION_KIND: Record<string, ActivityKind> = {
  promote: "promote",
  "promote-full": "promote",
  abort: "abort",
  retry: "retry",
  pause: "pause",
  resume: "resume",
  undo: "undo",
  restart: "other",
  "set-image": "update",
};

/** Argo Rollouts' event reasons (utils/conditions) and the kind of change each reports. */
const REASON_KIND: Record<string, ActivityKind> = {
  RolloutUpdated: "update",
  NewReplicaSetCreated: "update",
  RolloutCompleted: "phase",
  RolloutNotCompleted: "phase",
  RolloutStepCompleted: "step",
  RolloutPaused: "pause",
  RolloutResumed: "resume",
  RolloutAborted: "abort",
  SkipSteps: "promote",
  RolloutRetry: "retry",
  AnalysisRunSuccessful: "analysis",
  AnalysisRunFailed: "analysis",
  AnalysisRunError: "analysis",
  AnalysisRunInconclusive: "analysis",
  AnalysisRunRunning: "analysis",
  ExperimentCreated: "analysis",
};

function activityKindOfReason(reason: string): ActivityKind {
  return REASON_KIND[reason] ?? (reason.startsWith("AnalysisRun") || reason.startsWith("Experiment") ? "analysis" : "other");
}

const keyOf = (x: { cluster: string; namespace: string; rollout: string }) => `${x.cluster}/${x.namespace}/${x.rollout}`;

function describeStep(s: StoredSample): string {
  return formatStepPosition({ index: s.stepIndex, total: s.totalSteps });
}

/** The changes between two consecutive recorded states of one Rollout, most telling first. */
function diffSamples(prev: StoredSample, next: StoredSample): Array<{ kind: ActivityKind; summary: string }> {
  const changes: Array<{ kind: ActivityKind; summary: string }> = [];
  if (prev.revision !== next.revision)
    changes.push({ kind: "update", summary: `revision ${prev.revision ?? "–"} → ${next.revision ?? "–"}` });
  if (!prev.aborted && next.aborted) changes.push({ kind: "abort", summary: "aborted" });
  if (prev.aborted && !next.aborted && prev.revision === next.revision) changes.push({ kind: "retry", summary: "abort cleared" });
  if (!prev.paused && next.paused) changes.push({ kind: "pause", summary: `paused at ${describeStep(next)}` });
  if (prev.paused && !next.paused) changes.push({ kind: "resume", summary: "unpaused" });
  if (prev.revision === next.revision && (prev.stepIndex !== next.stepIndex || prev.totalSteps !== next.totalSteps) && next.totalSteps > 0)
    changes.push({ kind: "step", summary: `${describeStep(prev)} → ${describeStep(next)}` });
  if (prev.phase !== next.phase) changes.push({ kind: "phase", summary: `${prev.phase} → ${next.phase}` });
  return changes;
}

/** How long after a Rollscope action a change of the same kind on the same Rollout is taken to be its effect. */
const ACTION_EFFECT_MS = 60_000;
/** An Event within this long of a recorded change of the same kind reports that change: one row, not two. */
const SAME_CHANGE_MS = 30_000;

function actionFor(actions: readonly ActivityAction[], key: string, kind: ActivityKind, at: number): ActivityAction | null {
  let best: ActivityAction | null = null;
  for (const a of actions) {
    if (keyOf(a) !== key) continue;
    const kindOfAction = ACTION_KIND[a.action] ?? "other";
    // An undo or set-image shows as a new revision; a promote as a step, a resume or an update's end.
    const matches =
      kindOfAction === kind ||
      ((kindOfAction === "undo" || kindOfAction === "update") && kind === "update") ||
      (kindOfAction === "promote" && (kind === "step" || kind === "resume" || kind === "phase")) ||
      (kindOfAction === "retry" && kind === "step");
    const dt = at - Date.parse(a.at);
    if (matches && dt >= -1_000 && dt <= ACTION_EFFECT_MS && (!best || Date.parse(a.at) > Date.parse(best.at))) best = a;
  }
  return best;
}

/**
 * Every change of the given Rollouts, newest first: the recorded states' differences, the Events, and the actions
 * taken through Rollscope. A change is credited to a Rollscope user when one of their actions of that kind on that
 * Rollout went through shortly before; otherwise to the field manager recorded with the state, or the Event's
 * source. Events that report a recorded change lend it their message instead of making a row of their own.
 */
export function buildActivityTimeline(input: {
  rollouts: readonly RecordedRollout[];
  events: readonly ActivityEvent[];
  actions: readonly ActivityAction[];
  from: Date;
  to: Date;
}): ActivityItem[] {
  const { rollouts, events, actions, from, to } = input;
  const items: ActivityItem[] = [];
  const inWindow = (ms: number) => ms >= from.getTime() && ms <= to.getTime();
  const usedEvents = new Set<string>();
  const eventsByKey = new Map<string, ActivityEvent[]>();
  for (const e of events) {
    const list = eventsByKey.get(keyOf(e)) ?? [];
    list.push(e);
    eventsByKey.set(keyOf(e), list);
  }

  // Two stored states of one Rollout can share a millisecond (two steps in one reconcile): numbered, so no two rows
  // share an id (the page keys its rows by it).
  const sameInstant = new Map<string, number>();
  for (const r of rollouts) {
    const key = `${r.cluster}/${r.namespace}/${r.name}`;
    for (let i = 1; i < r.samples.length; i++) {
      const prev = r.samples[i - 1];
      const next = r.samples[i];
      const at = next.at.getTime();
      if (!inWindow(at)) continue;
      for (const change of diffSamples(prev, next)) {
        const event = (eventsByKey.get(key) ?? []).find(
          (e) =>
            !usedEvents.has(e.eventUid) &&
            activityKindOfReason(e.reason) === change.kind &&
            Math.abs(e.lastAt.getTime() - at) <= SAME_CHANGE_MS,
        );
        if (event) usedEvents.add(event.eventUid);
        const action = actionFor(actions, key, change.kind, at);
        // The controller is the last writer of nearly every state it reconciles; the Event says more about it.
        const manager = next.manager && next.manager !== CONTROLLER_FIELD_MANAGER ? next.manager : null;
        const id = `s:${key}:${at}:${change.kind}`;
        const nth = (sameInstant.get(id) ?? 0) + 1;
        sameInstant.set(id, nth);
        items.push({
          id: nth === 1 ? id : `${id}:${nth}`,
          at: next.at.toISOString(),
          cluster: r.cluster,
          namespace: r.namespace,
          rollout: r.name,
          kind: change.kind,
          summary: change.summary,
          detail: event?.message ?? next.message,
          actor: action
            ? { name: action.user, via: "rollscope" }
            : manager
              ? { name: manager, via: "field-manager" }
              : event?.source
                ? { name: event.source, via: "event" }
                : next.manager
                  ? { name: next.manager, via: "field-manager" }
                  : null,
        });
      }
    }
  }

  for (const e of events) {
    if (usedEvents.has(e.eventUid) || !inWindow(e.lastAt.getTime())) continue;
    const kind = activityKindOfReason(e.reason);
    const action = actionFor(actions, keyOf(e), kind, e.lastAt.getTime());
    items.push({
      id: `e:${e.cluster}:${e.eventUid}`,
      at: e.lastAt.toISOString(),
      cluster: e.cluster,
      namespace: e.namespace,
      rollout: e.rollout,
      kind,
      summary: e.type === "Warning" ? `${e.reason} (warning)` : e.reason,
      detail: e.message,
      actor: action ? { name: action.user, via: "rollscope" } : e.source ? { name: e.source, via: "event" } : null,
    });
  }

  for (const a of actions) {
    if (!inWindow(Date.parse(a.at))) continue;
    items.push({
      id: `a:${a.id}`,
      at: a.at,
      cluster: a.cluster,
      namespace: a.namespace,
      rollout: a.rollout,
      kind: ACTION_KIND[a.action] ?? "other",
      summary: `${a.action} through Rollscope`,
      detail: a.message,
      actor: { name: a.user, via: "rollscope" },
    });
  }

  // Stable: changes of one instant keep their most-telling-first order.
  return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

const CSV_COLUMNS = ["at", "cluster", "namespace", "rollout", "kind", "summary", "actor", "actorVia", "detail"] as const;

export function activityToCsv(items: readonly ActivityItem[]): string {
  const rows = items.map((i) =>
    [i.at, i.cluster, i.namespace, i.rollout, i.kind, i.summary, i.actor?.name ?? null, i.actor?.via ?? null, i.detail]
      .map(csvCell)
      .join(","),
  );
  return [CSV_COLUMNS.join(","), ...rows].join("\r\n") + "\r\n";
}
