import type { ObjectStore } from "../store/object-store";
import type { ClusterCache } from "./cluster-cache";
import type { EventRecorder, EventType } from "./event-recorder";
import type { K8sClient } from "./k8s-client";
import { PauseContext } from "./pause-context";
import type { PluginConfig } from "./plugin-config";
import type { Prng } from "./prng";
import type { SimClock } from "./sim-clock";
import type { RouterEnv } from "./traffic-routers";
import type { TransitionLog } from "./transition-log";
import type { AnalysisRun, ReplicaSet, Rollout, RolloutStatus, TrafficWeights } from "./types";
import { T } from "./resource-types";

export const REVISION_ANNOTATION = "rollout.argoproj.io/revision";
export const POD_HASH_LABEL = "rollouts-pod-template-hash";
export const SCALE_DOWN_DEADLINE_ANNOTATION = "scale-down-deadline";
/** Simulator-only annotations (never upstream): the analysis outcome and how long a run takes. */
export const SIM_ANALYSIS_OUTCOME = "sim.rollscope.dev/analysis-outcome";
export const SIM_ANALYSIS_SECONDS = "sim.rollscope.dev/analysis-duration-seconds";

/** What the per-rollout reconcile functions need from the controller. */
export interface ControllerDeps {
  clusterName: string;
  store: ObjectStore;
  client: K8sClient;
  clock: SimClock;
  prng: Prng;
  cache: ClusterCache;
  recorder: EventRecorder;
  transitions: TransitionLog;
  pluginConfig: PluginConfig;
  /** Precise (epoch ms) instants behind second-precision timestamps the controller wrote, keyed by `<uid>/<what>/<iso>`. */
  precise: Map<string, number>;
  routerEnv(ctx: ReconcileContext): RouterEnv;
}

function copyWeights(w: TrafficWeights): TrafficWeights {
  return {
    ...w,
    canary: { ...w.canary },
    stable: { ...w.stable },
    ...(w.additional ? { additional: w.additional.map((a) => ({ ...a })) } : {}),
  };
}

export function revisionOf(obj: { metadata: { annotations?: Record<string, string> } }): number {
  const value = Number.parseInt(obj.metadata.annotations?.[REVISION_ANNOTATION] ?? "", 10);
  return Number.isFinite(value) ? value : 0;
}

export function podHashOf(rs: ReplicaSet | undefined): string {
  return rs?.metadata.labels?.[POD_HASH_LABEL] ?? "";
}

/** One reconcile of one rollout: upstream's rolloutContext. */
export class ReconcileContext {
  ro: Rollout;
  allRSs: ReplicaSet[] = [];
  newRS: ReplicaSet | undefined;
  stableRS: ReplicaSet | undefined;
  /** Every ReplicaSet but the new and the stable one. */
  otherRSs: ReplicaSet[] = [];
  readonly pause: PauseContext;
  /** Fields the sub-reconcilers set before the status is assembled (upstream c.newStatus). */
  readonly newStatus: RolloutStatus;
  currentArs: { step?: AnalysisRun; background?: AnalysisRun } = {};
  /** Set by traffic routing: the router's VerifyWeight answer (undefined = not implemented / not asked). */
  weightVerified: boolean | undefined;
  /** Simulated seconds until this rollout wants another reconcile. */
  requeueSeconds: number | null = null;
  /** Simulated plugin RPC time spent in this reconcile. */
  rpcLatencyMs = 0;
  stepPluginError = false;

  constructor(
    readonly deps: ControllerDeps,
    ro: Rollout,
  ) {
    this.ro = ro;
    this.pause = new PauseContext(
      () => this.ro,
      () => deps.clock.iso(),
    );
    const prev = ro.status ?? {};
    this.newStatus = {
      restartedAt: prev.restartedAt,
      canary: {
        weights: prev.canary?.weights ? copyWeights(prev.canary.weights) : undefined,
        currentStepAnalysisRunStatus: prev.canary?.currentStepAnalysisRunStatus,
        currentBackgroundAnalysisRunStatus: prev.canary?.currentBackgroundAnalysisRunStatus,
        currentExperiment: prev.canary?.currentExperiment,
        stepPluginStatuses: prev.canary?.stepPluginStatuses?.map((s) => ({ ...s })),
      },
      blueGreen: { ...(prev.blueGreen ?? {}) },
    };
    this.loadReplicaSets();
  }

  get key(): string {
    return `${this.ro.metadata.namespace}/${this.ro.metadata.name}`;
  }

  get now(): string {
    return this.deps.clock.iso();
  }

  /** Re-reads the rollout after one of the controller's own writes (upstream replaces c.rollout likewise). */
  refresh(): void {
    const latest = this.deps.store.tryGet(T.rollouts, this.ro.metadata.namespace, this.ro.metadata.name);
    if (latest) this.ro = latest as Rollout;
  }

  /** Groups the owned ReplicaSets into new (matching the template hash), stable (status.stableRS) and others. */
  loadReplicaSets(desiredHash?: string): void {
    this.allRSs = this.deps.cache.replicaSetsOf(this.key, this.ro.metadata.uid);
    const hash = desiredHash ?? this.ro.status?.currentPodHash;
    this.newRS = hash ? this.allRSs.find((rs) => podHashOf(rs) === hash) : undefined;
    const stableHash = this.ro.status?.stableRS;
    this.stableRS = stableHash ? this.allRSs.find((rs) => podHashOf(rs) === stableHash) : undefined;
    this.otherRSs = this.allRSs.filter((rs) => rs !== this.newRS && rs !== this.stableRS);
  }

  /** Refreshes one ReplicaSet from the store after the controller wrote it. */
  replaceReplicaSet(rs: ReplicaSet): void {
    const swap = (x: ReplicaSet) => (x.metadata.name === rs.metadata.name ? rs : x);
    this.allRSs = this.allRSs.map(swap);
    if (this.newRS?.metadata.name === rs.metadata.name) this.newRS = rs;
    if (this.stableRS?.metadata.name === rs.metadata.name) this.stableRS = rs;
    this.otherRSs = this.otherRSs.map(swap);
  }

  event(type: EventType, reason: string, message: string): void {
    this.deps.recorder.record(this.ro, type, reason, message);
  }

  requeueAfter(simSeconds: number): void {
    const s = Math.max(simSeconds, 0.001);
    this.requeueSeconds = this.requeueSeconds === null ? s : Math.min(this.requeueSeconds, s);
  }

  /** Simulated seconds since a timestamp this controller wrote (precise when it remembers the instant). */
  elapsedSince(what: string, iso: string): number {
    const precise = this.deps.precise.get(`${this.ro.metadata.uid}/${what}/${iso}`);
    return this.deps.clock.simSecondsSinceIso(iso, precise);
  }

  rememberPrecise(what: string, iso: string): void {
    const key = `${this.ro.metadata.uid}/${what}/${iso}`;
    if (!this.deps.precise.has(key)) this.deps.precise.set(key, this.deps.clock.now());
  }
}
