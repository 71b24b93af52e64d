import { derivePause, type PauseState } from "./pause";
import { deriveRolloutPhase, type RolloutPhase } from "./phase";
import { deriveActualWeight, deriveCliStep } from "./rollout-info";
import { listPluginStepNames, listTrafficRouters, type TrafficRouter } from "./routers";
import { deriveMaxTrafficWeight } from "./max-traffic-weight";
import type { AnalysisRunStatusRef, RolloutResource } from "./schema";
import { deriveLastWriter } from "./field-manager";
import { formatStepPosition } from "./step-position";
import { describeStep, deriveStepProgress, type StepDescription, type StepKind, type StepProgress } from "./steps";
import { deriveAppliedWeights, deriveRequestedWeight, type AppliedWeights, type RequestedWeight } from "./weights";

export type RolloutStrategy = "canary" | "blueGreen" | "none";
export type StepState = "done" | "current" | "pending";

export interface StepPluginStatusView {
  /** Run, Terminate or Abort. */
  operation: string | null;
  /** Running, Successful, Failed or Error. */
  phase: string | null;
  message: string | null;
}

export interface RolloutStepView {
  index: number;
  kind: StepKind;
  label: string;
  state: StepState;
  /** A plugin step's latest `status.canary.stepPluginStatuses` entry; absent for other steps or before it ran. */
  plugin?: StepPluginStatusView;
}

/** `status.duration` (controllers after v1.10.0-rc1): when this revision's rollout started and how it ended. */
export interface RolloutDurationView {
  startedAt: string;
  finishedAt: string | null;
  /** Promoted, FastPromoted, Aborted, Superseded, RolledBack or FastRolledBack. */
  completionStatus: string | null;
  manualPauseSeconds: number;
}

export interface AnalysisRunRefView {
  name: string;
  /** AnalysisPhase: Pending | Running | Successful | Failed | Error | Inconclusive. */
  status: string;
  message: string | null;
}

export interface RolloutAnalysisView {
  currentStep: AnalysisRunRefView | null;
  background: AnalysisRunRefView | null;
  prePromotion: AnalysisRunRefView | null;
  postPromotion: AnalysisRunRefView | null;
}

export interface CanaryServicesView {
  canaryService: string | null;
  stableService: string | null;
}

export interface BlueGreenView {
  activeService: string | null;
  previewService: string | null;
  /** Pod-template hashes the services currently select. */
  activeSelector: string | null;
  previewSelector: string | null;
  autoPromotionEnabled: boolean;
  autoPromotionSeconds: number | null;
}

export interface ContainerImageView {
  container: string;
  image: string | null;
}

export interface ReplicaCountsView {
  desired: number;
  current: number;
  updated: number;
  ready: number;
  available: number;
}

export interface ConditionView {
  type: string;
  status: string;
  reason: string | null;
  message: string | null;
  lastTransitionTime: string | null;
  lastUpdateTime: string | null;
}

export type AttentionCode =
  | "AwaitingPromotion"
  | "NeedsResume"
  | "Aborted"
  | "Degraded"
  | "ProgressDeadlineExceeded"
  | "AnalysisFailed"
  | "AnalysisError"
  | "AnalysisInconclusive"
  | "WeightNotVerified"
  // From the cluster around the Rollout and from time (lib/rollouts/attention-signals.ts):
  | "PluginNotRegistered"
  | "ReconcileFailing"
  | "WarningEvent"
  | "ProgressDeadlineApproaching"
  | "NoProgress";

export interface AttentionReason {
  code: AttentionCode;
  message: string;
  /** Where the finding behind it is shown: a plugins page entry or a section of the detail page. */
  href?: string;
}

/** Plain, JSON-serialisable view of one Rollout: the contract between the server and the UI/API. */
export interface RolloutView {
  name: string;
  namespace: string | null;
  uid: string | null;
  /** Who wrote the object last (deriveLastWriter of `metadata.managedFields`); null when it does not say. */
  lastWriter: string | null;
  /** From the `rollout.argoproj.io/revision` annotation. */
  revision: number | null;
  generation: number | null;
  observedGeneration: string | null;
  resourceVersion: string | null;
  createdAt: string | null;
  strategy: RolloutStrategy;
  phase: RolloutPhase;
  message: string;
  stepProgress: StepProgress;
  currentStep: StepDescription | null;
  steps: RolloutStepView[];
  /** Weight the steps ask for (GetCurrentSetWeight); null for non-canary. */
  requestedWeight: RequestedWeight | null;
  /** Weight the controller set on the routers (`status.canary.weights`); null without traffic routing. */
  appliedWeights: AppliedWeights | null;
  /** The step as `kubectl argo rollouts get rollout` prints it (`currentStepIndex/len(steps)`, "" without). */
  cliStep: string;
  /**
   * Upstream's ActualWeight in maxTrafficWeight units, from the Rollout alone; null for blue-green and for a canary
   * without traffic routing in mid-rollout, where it needs the ReplicaSets (the detail page fetches them).
   */
  actualWeight: number | null;
  maxTrafficWeight: number;
  pause: PauseState | null;
  analysis: RolloutAnalysisView;
  trafficRouters: TrafficRouter[];
  pluginSteps: string[];
  canary: CanaryServicesView | null;
  blueGreen: BlueGreenView | null;
  images: ContainerImageView[];
  replicas: ReplicaCountsView;
  aborted: boolean;
  abortedAt: string | null;
  promoteFull: boolean;
  stableRS: string | null;
  currentPodHash: string | null;
  conditions: ConditionView[];
  attention: AttentionReason[];
  /** Null when the controller does not report `status.duration` (v1.9 and older). */
  duration: RolloutDurationView | null;
}

/** A Rollout's view as the fleet holds it: what the detail page and the live stream carry. */
export interface FleetRollout extends RolloutView {
  cluster: string;
  /** `cluster/namespace/name`: unique across the fleet. */
  key: string;
  /** Set when the object did not match the Rollout schema; the view then shows what could be read. */
  parseError: string | null;
  /** When this Rollout last changed, as seen by Rollscope (ISO). */
  lastChangedAt: string;
}

const REVISION_ANNOTATION = "rollout.argoproj.io/revision";

export function toRolloutView(rollout: RolloutResource, now: Date): RolloutView {
  const { metadata, spec, status } = rollout;
  const { phase, message } = deriveRolloutPhase(rollout);
  const maxTrafficWeight = deriveMaxTrafficWeight(rollout);
  const stepProgress = deriveStepProgress(rollout);
  const pluginStatuses = latestStepPluginStatuses(rollout);
  const steps = (spec?.strategy?.canary?.steps ?? []).map((step, index): RolloutStepView => ({
    index,
    ...describeStep(step, maxTrafficWeight),
    state: deriveStepState(index, stepProgress.index),
    ...(pluginStatuses.has(index) ? { plugin: pluginStatuses.get(index) } : {}),
  }));
  const currentStep = stepProgress.current === null ? null : (steps[stepProgress.current - 1] ?? null);
  const appliedWeights = deriveAppliedWeights(rollout);
  const pause = derivePause(rollout, now);
  const analysis = deriveAnalysisView(rollout);
  const conditions = (status?.conditions ?? []).map((c): ConditionView => ({
    type: c.type,
    status: c.status,
    reason: c.reason ?? null,
    message: c.message ?? null,
    lastTransitionTime: c.lastTransitionTime ?? null,
    lastUpdateTime: c.lastUpdateTime ?? null,
  }));
  const canarySpec = spec?.strategy?.canary;
  const blueGreenSpec = spec?.strategy?.blueGreen;

  return {
    name: metadata.name,
    namespace: metadata.namespace ?? null,
    uid: metadata.uid ?? null,
    lastWriter: deriveLastWriter(metadata.managedFields),
    revision: parseRevision(metadata.annotations?.[REVISION_ANNOTATION]),
    generation: metadata.generation ?? null,
    observedGeneration: status?.observedGeneration ?? null,
    resourceVersion: metadata.resourceVersion ?? null,
    createdAt: metadata.creationTimestamp ?? null,
    strategy: canarySpec ? "canary" : blueGreenSpec ? "blueGreen" : "none",
    phase,
    message,
    stepProgress,
    currentStep: currentStep && { kind: currentStep.kind, label: currentStep.label },
    steps,
    requestedWeight: deriveRequestedWeight(rollout),
    appliedWeights,
    cliStep: deriveCliStep(rollout),
    actualWeight: deriveActualWeight(rollout, null),
    maxTrafficWeight,
    pause,
    analysis,
    trafficRouters: listTrafficRouters(rollout),
    pluginSteps: listPluginStepNames(rollout),
    canary: canarySpec ? { canaryService: canarySpec.canaryService ?? null, stableService: canarySpec.stableService ?? null } : null,
    blueGreen: blueGreenSpec
      ? {
          activeService: blueGreenSpec.activeService ?? null,
          previewService: blueGreenSpec.previewService ?? null,
          activeSelector: status?.blueGreen?.activeSelector ?? null,
          previewSelector: status?.blueGreen?.previewSelector ?? null,
          autoPromotionEnabled: blueGreenSpec.autoPromotionEnabled ?? true,
          autoPromotionSeconds: blueGreenSpec.autoPromotionSeconds ?? null,
        }
      : null,
    images: (spec?.template?.spec?.containers ?? []).map((c) => ({ container: c.name, image: c.image ?? null })),
    replicas: {
      desired: spec?.replicas ?? 1,
      current: status?.replicas ?? 0,
      updated: status?.updatedReplicas ?? 0,
      ready: status?.readyReplicas ?? 0,
      available: status?.availableReplicas ?? 0,
    },
    aborted: status?.abort === true,
    abortedAt: status?.abortedAt ?? null,
    promoteFull: status?.promoteFull === true,
    stableRS: status?.stableRS ?? null,
    currentPodHash: status?.currentPodHash ?? null,
    conditions,
    duration: deriveDuration(rollout),
    attention: deriveAttention({ rollout, phase, message, pause, analysis, appliedWeights, stepProgress, conditions }),
  };
}

/** The last entry per step index (a step that ran and was then terminated has two). */
function latestStepPluginStatuses(rollout: RolloutResource): Map<number, StepPluginStatusView> {
  const byIndex = new Map<number, StepPluginStatusView>();
  for (const s of rollout.status?.canary?.stepPluginStatuses ?? []) {
    byIndex.set(s.index, { operation: s.operation ?? null, phase: s.phase ?? null, message: s.message || null });
  }
  return byIndex;
}

function deriveDuration(rollout: RolloutResource): RolloutDurationView | null {
  const d = rollout.status?.duration;
  if (!d?.rolloutStartedAt) return null;
  return {
    startedAt: d.rolloutStartedAt,
    finishedAt: d.finishedAt ?? null,
    completionStatus: d.completionStatus ?? null,
    manualPauseSeconds: d.totalManualPauseDurationSeconds ?? 0,
  };
}

function deriveStepState(index: number, currentIndex: number | null): StepState {
  if (currentIndex === null || index > currentIndex) return "pending";
  return index === currentIndex ? "current" : "done";
}

function parseRevision(value: string | undefined): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  return Number(value);
}

function toAnalysisRef(ref: AnalysisRunStatusRef | undefined): AnalysisRunRefView | null {
  return ref ? { name: ref.name, status: ref.status, message: ref.message ?? null } : null;
}

function deriveAnalysisView(rollout: RolloutResource): RolloutAnalysisView {
  const { canary, blueGreen } = rollout.status ?? {};
  return {
    currentStep: toAnalysisRef(canary?.currentStepAnalysisRunStatus),
    background: toAnalysisRef(canary?.currentBackgroundAnalysisRunStatus),
    prePromotion: toAnalysisRef(blueGreen?.prePromotionAnalysisRunStatus),
    postPromotion: toAnalysisRef(blueGreen?.postPromotionAnalysisRunStatus),
  };
}

const ANALYSIS_LABELS: Record<keyof RolloutAnalysisView, string> = {
  currentStep: "Step analysis",
  background: "Background analysis",
  prePromotion: "Pre-promotion analysis",
  postPromotion: "Post-promotion analysis",
};

const ANALYSIS_ATTENTION: Partial<Record<string, AttentionCode>> = {
  Failed: "AnalysisFailed",
  Error: "AnalysisError",
  Inconclusive: "AnalysisInconclusive",
};

interface AttentionInput {
  rollout: RolloutResource;
  phase: RolloutPhase;
  message: string;
  pause: PauseState | null;
  analysis: RolloutAnalysisView;
  appliedWeights: AppliedWeights | null;
  stepProgress: StepProgress;
  conditions: ConditionView[];
}

function deriveAttention(input: AttentionInput): AttentionReason[] {
  const { rollout, phase, message, pause, analysis, appliedWeights, stepProgress, conditions } = input;
  const reasons: AttentionReason[] = [];

  // `spec.paused` holds the Rollout whatever its steps say: it needs Resume (promote would also skip a step).
  if (pause?.manual) {
    reasons.push({ code: "NeedsResume", message: "Paused by spec.paused (pause, or kubectl argo rollouts pause); resume to continue" });
  } else if (pause?.indefinite) {
    reasons.push({ code: "AwaitingPromotion", message: describeIndefinitePause(pause, stepProgress) });
  }

  const progressing = conditions.find((c) => c.type === "Progressing");
  const deadlineExceeded = progressing?.reason === "ProgressDeadlineExceeded";
  if (rollout.status?.abort) {
    reasons.push({ code: "Aborted", message: message || progressing?.message || "Rollout aborted" });
  } else if (phase === "Degraded" && !deadlineExceeded) {
    reasons.push({ code: "Degraded", message: message || "Rollout is degraded" });
  }
  if (deadlineExceeded) {
    reasons.push({
      code: "ProgressDeadlineExceeded",
      message: progressing?.message ?? "Rollout exceeded its progress deadline",
    });
  }

  for (const key of Object.keys(ANALYSIS_LABELS) as (keyof RolloutAnalysisView)[]) {
    const run = analysis[key];
    const code = run ? ANALYSIS_ATTENTION[run.status] : undefined;
    if (run && code) {
      const detail = run.message ? `: ${run.message}` : "";
      reasons.push({ code, message: `${ANALYSIS_LABELS[key]} ${run.name} is ${run.status}${detail}` });
    }
  }

  if (appliedWeights?.verified === false) {
    reasons.push({
      code: "WeightNotVerified",
      message: `Router has not verified the canary weight (${appliedWeights.canaryPercent}%)`,
    });
  }
  return reasons;
}

function describeIndefinitePause(pause: PauseState, progress: StepProgress): string {
  const where = progress.current !== null ? ` at ${formatStepPosition(progress)}` : "";
  switch (pause.reason) {
    case "Manual":
      return "Manually paused; resume or promote to continue";
    case "InconclusiveAnalysisRun":
      return `Paused${where}: analysis was inconclusive; promote or abort`;
    case "InconclusiveExperiment":
      return `Paused${where}: experiment was inconclusive; promote or abort`;
    default:
      return `Paused${where} until promoted`;
  }
}
