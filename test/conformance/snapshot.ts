import type { Kube, KubeObject } from "./kube";

/**
 * What a scenario records after every step: the Rollout's status as a user (and Rollscope) sees it, the Events
 * on the Rollout and the controller metric series of the scenario's namespace, each normalised so that what
 * differs between two correct clusters (names with hashes, timestamps, uids, counts) does not count.
 */
export interface Snapshot {
  phase: string | null;
  message: string | null;
  currentStepIndex: number | null;
  abort: boolean;
  controllerPause: boolean;
  pauseReasons: string[];
  /** Canary and stable weights, and `verified` (absent = not implemented). */
  weights: { canary: number; stable: number; verified: boolean | null } | null;
  conditions: string[];
  /** Whether the current pod template is the stable one. */
  promoted: boolean;
  replicas: { desired: number | null; updated: number | null; ready: number | null; available: number | null };
  /** Blue-green selectors by role: "current" (the new template), "stable", or "none". */
  blueGreen: { active: string; preview: string } | null;
  /** Distinct events on the Rollout (`type reason: message`); in a recording, those new since the previous step. */
  events: string[];
  /** Metric series of the namespace (`name{label=value,…}`, identifying values masked); in a recording, the new ones. */
  metrics: string[];
}

export interface RolloutJson extends KubeObject {
  spec: { replicas?: number; paused?: boolean; strategy: { canary?: { steps?: unknown[] }; blueGreen?: object }; template?: unknown };
  status?: {
    phase?: string;
    message?: string;
    currentStepIndex?: number;
    abort?: boolean;
    controllerPause?: boolean;
    pauseConditions?: Array<{ reason: string }>;
    currentPodHash?: string;
    stableRS?: string;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: string;
    conditions?: Array<{ type: string; status: string; reason: string }>;
    canary?: {
      weights?: { canary: { weight: number }; stable: { weight: number }; verified?: boolean };
      currentStepAnalysisRunStatus?: { status?: string };
    };
    blueGreen?: { activeSelector?: string; previewSelector?: string };
  };
}

interface EventJson {
  type: string;
  reason: string;
  message: string;
  involvedObject: { kind: string; name: string };
  firstTimestamp?: string | null;
  eventTime?: string | null;
  metadata?: { creationTimestamp?: string };
}

/** The alphabet of Kubernetes' SafeEncodeString (pod-template hashes, generated name suffixes). */
const HASH = "[bcdfghjklmnpqrstvwxz2456789]{5,10}";
const HASH_SUFFIX = new RegExp(`-${HASH}\\b`, "g");
const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;

/** Hashes and timestamps out of a message; the Rollout and namespace names are the scenario's own, kept. */
function normaliseText(text: string, knownHashes: readonly string[] = []): string {
  let out = text.replace(TIMESTAMP, "<time>");
  for (const hash of knownHashes) if (hash) out = out.split(hash).join("<hash>");
  // An AnalysisRun name's collision counter (`<rollout>-<hash>-<revision>.1`): the real controller adds one when a
  // reconcile that created the run failed (a conflict) and the next one, before its cache saw the run, creates it again.
  return out.replace(HASH_SUFFIX, "-<hash>").replace(/(-<hash>-\d+(?:-\d+)?)\.\d+\b/g, "$1");
}

function role(selector: string | undefined, ro: RolloutJson): string {
  if (!selector) return "none";
  if (selector === ro.status?.currentPodHash) return "current";
  if (selector === ro.status?.stableRS) return "stable";
  return "other";
}

/** Labels whose values say what happened (kept); every other label keeps only its name. */
const MEANINGFUL_LABELS = new Set(["phase", "strategy", "traffic_router", "reason", "type"]);
/** Series that exist per bucket or per request kind: implementation detail of the controller's client. */
const IGNORED_METRICS = new Set(["controller_clientset_k8s_request_total"]);

/** The metric series of one namespace, values dropped: `name{label=value,...}` sorted. */
function metricSeries(exposition: string, namespace: string): string[] {
  const series = new Set<string>();
  for (const line of exposition.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)\{(.*)\}\s/.exec(line);
    if (!match || !match[2].includes(`namespace="${namespace}"`)) continue;
    const [, name, labelText] = match;
    if (IGNORED_METRICS.has(name) || name.endsWith("_bucket")) continue;
    const labels = [...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)]
      .filter(([, key]) => key !== "le")
      .map(([, key, value]) => (MEANINGFUL_LABELS.has(key) ? `${key}=${value}` : key))
      .sort();
    series.add(`${name}{${labels.join(",")}}`);
  }
  return [...series].sort();
}

async function readMetrics(url: string, namespace: string): Promise<string[]> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return metricSeries(await res.text(), namespace);
}

export async function readRollout(kube: Kube, namespace: string, name: string): Promise<RolloutJson> {
  return kube.get<RolloutJson>("argoproj.io/v1alpha1", "Rollout", namespace, name);
}

async function knownHashes(kube: Kube, namespace: string): Promise<string[]> {
  const sets = await kube.list("apps/v1", "ReplicaSet", namespace);
  return sets.map((rs) => rs.metadata.labels?.["rollouts-pod-template-hash"] ?? "").filter(Boolean);
}

function statusSnapshot(ro: RolloutJson, hashes: readonly string[] = []): Omit<Snapshot, "events" | "metrics"> {
  const s = ro.status ?? {};
  const w = s.canary?.weights;
  return {
    phase: s.phase ?? null,
    message: s.message ? normaliseText(s.message, hashes) : null,
    currentStepIndex: s.currentStepIndex ?? null,
    abort: s.abort === true,
    controllerPause: s.controllerPause === true,
    pauseReasons: (s.pauseConditions ?? []).map((p) => p.reason).sort(),
    weights: w ? { canary: w.canary.weight, stable: w.stable.weight, verified: w.verified ?? null } : null,
    conditions: (s.conditions ?? []).map((c) => `${c.type}=${c.status} (${c.reason})`).sort(),
    promoted: !!s.currentPodHash && s.currentPodHash === s.stableRS,
    replicas: {
      desired: s.replicas ?? null,
      updated: s.updatedReplicas ?? null,
      ready: s.readyReplicas ?? null,
      available: s.availableReplicas ?? null,
    },
    blueGreen: ro.spec.strategy.blueGreen
      ? { active: role(s.blueGreen?.activeSelector, ro), preview: role(s.blueGreen?.previewSelector, ro) }
      : null,
  };
}

export async function takeSnapshot(kube: Kube, metricsUrl: string, namespace: string, name: string): Promise<Snapshot> {
  const [ro, hashes, events, metrics] = await Promise.all([
    readRollout(kube, namespace, name),
    knownHashes(kube, namespace),
    kube.list<EventJson>("v1", "Event", namespace),
    readMetrics(metricsUrl, namespace),
  ]);
  const eventLines = rolloutEvents(events, name).map((e) => eventLine(e, hashes));
  return { ...statusSnapshot(ro, hashes), events: [...new Set(eventLines)].sort(), metrics };
}

const rolloutEvents = (events: EventJson[], name: string) =>
  events.filter((e) => e.involvedObject.kind === "Rollout" && e.involvedObject.name === name);
const eventLine = (e: EventJson, hashes: readonly string[]) => `${e.type} ${e.reason}: ${normaliseText(e.message, hashes)}`;

/**
 * When the controller emitted each of the Rollout's events (as recorded lines), epoch ms: its `firstTimestamp`
 * (whole seconds), else `eventTime`, else when the API server stored it. The earliest when a line occurs more than once.
 */
export async function eventEmissionTimes(kube: Kube, namespace: string, name: string): Promise<Map<string, number>> {
  const [hashes, events] = await Promise.all([knownHashes(kube, namespace), kube.list<EventJson>("v1", "Event", namespace)]);
  const times = new Map<string, number>();
  for (const e of rolloutEvents(events, name)) {
    const at = Date.parse(e.firstTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? "");
    if (Number.isNaN(at)) continue;
    const line = eventLine(e, hashes);
    times.set(line, Math.min(at, times.get(line) ?? at));
  }
  return times;
}
