import type { KubeObject, ObjectMeta } from "../store/object-store";

/** The parts of the Argo Rollouts v1alpha1 types the simulator reads and writes (`pkg/apis/rollouts/v1alpha1/types.go`). */

export interface StringMatch {
  exact?: string;
  prefix?: string;
  regex?: string;
}

export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { containers?: Array<{ name: string; image?: string; [key: string]: unknown }>; [key: string]: unknown };
}

export interface AnalysisRef {
  templates?: Array<{ templateName: string; clusterScope?: boolean }>;
  args?: Array<{ name: string; value?: string; valueFrom?: unknown }>;
}

export interface CanaryStep {
  setWeight?: number;
  pause?: { duration?: number | string };
  analysis?: AnalysisRef;
  experiment?: {
    duration?: number | string;
    templates?: Array<{ name: string; specRef: string; replicas?: number; weight?: number }>;
    analyses?: Array<{ name: string; templateName: string }>;
  };
  setCanaryScale?: { weight?: number; replicas?: number; matchTrafficWeight?: boolean };
  setHeaderRoute?: { name: string; match?: Array<{ headerName: string; headerValue: StringMatch }> };
  setMirrorRoute?: { name: string; match?: unknown[]; percentage?: number };
  plugin?: { name: string; config?: unknown };
}

export interface TrafficRouting {
  istio?: { virtualService?: { name: string; routes?: string[] }; virtualServices?: Array<{ name: string }> };
  nginx?: { stableIngress?: string; stableIngresses?: string[]; annotationPrefix?: string };
  plugins?: Record<string, unknown>;
  managedRoutes?: Array<{ name: string }>;
  maxTrafficWeight?: number;
  [router: string]: unknown;
}

export interface CanaryStrategy {
  canaryService?: string;
  stableService?: string;
  steps?: CanaryStep[];
  trafficRouting?: TrafficRouting;
  analysis?: AnalysisRef & { startingStep?: number };
  scaleDownDelaySeconds?: number;
  abortScaleDownDelaySeconds?: number;
  dynamicStableScale?: boolean;
  /** IntOrString; default "25" (25 %). */
  maxSurge?: number | string;
  /** IntOrString; default "25" (25 %). */
  maxUnavailable?: number | string;
  minPodsPerReplicaSet?: number;
}

export interface BlueGreenStrategy {
  activeService: string;
  previewService?: string;
  autoPromotionEnabled?: boolean;
  autoPromotionSeconds?: number;
  previewReplicaCount?: number;
  scaleDownDelaySeconds?: number;
}

export interface RolloutSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template: PodTemplate;
  paused?: boolean;
  restartAt?: string;
  progressDeadlineSeconds?: number;
  progressDeadlineAbort?: boolean;
  revisionHistoryLimit?: number;
  strategy: { canary?: CanaryStrategy; blueGreen?: BlueGreenStrategy };
}

export type PauseReason = "CanaryPauseStep" | "BlueGreenPause" | "InconclusiveAnalysisRun" | "InconclusiveExperiment";

export interface PauseCondition {
  reason: PauseReason;
  startTime: string;
}

export type AnalysisPhase = "Pending" | "Running" | "Successful" | "Failed" | "Error" | "Inconclusive";

export interface RolloutAnalysisRunStatus {
  name: string;
  /** The run's phase; "" while the analysis controller has not picked the run up yet. */
  status: AnalysisPhase | "";
  message?: string;
}

export interface WeightDestination {
  weight: number;
  serviceName?: string;
  podTemplateHash?: string;
}

export interface TrafficWeights {
  canary: WeightDestination;
  stable: WeightDestination;
  additional?: WeightDestination[];
  verified?: boolean;
}

export interface StepPluginStatus {
  index: number;
  name: string;
  operation: "Run" | "Terminate" | "Abort";
  phase: "Running" | "Successful" | "Failed" | "Error";
  message?: string;
  startedAt?: string;
  updatedAt?: string;
  finishedAt?: string;
  executions?: number;
  disabled?: boolean;
}

export interface CanaryStatus {
  currentStepAnalysisRunStatus?: RolloutAnalysisRunStatus;
  currentBackgroundAnalysisRunStatus?: RolloutAnalysisRunStatus;
  currentExperiment?: string;
  weights?: TrafficWeights;
  stepPluginStatuses?: StepPluginStatus[];
}

export interface BlueGreenStatus {
  previewSelector?: string;
  activeSelector?: string;
  scaleUpPreviewCheckPoint?: boolean;
}

export type ConditionType = "Progressing" | "Available" | "Healthy" | "Completed" | "Paused" | "InvalidSpec" | "ReplicaFailure";
export type ConditionStatus = "True" | "False" | "Unknown";

export interface RolloutCondition {
  type: ConditionType;
  status: ConditionStatus;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export type RolloutPhase = "Healthy" | "Degraded" | "Progressing" | "Paused";

export interface RolloutStatus {
  abort?: boolean;
  abortedAt?: string;
  pauseConditions?: PauseCondition[];
  controllerPause?: boolean;
  promoteFull?: boolean;
  currentPodHash?: string;
  currentStepHash?: string;
  currentStepIndex?: number;
  stableRS?: string;
  observedGeneration?: string;
  phase?: RolloutPhase;
  message?: string;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  HPAReplicas?: number;
  selector?: string;
  restartedAt?: string;
  collisionCount?: number;
  conditions?: RolloutCondition[];
  canary?: CanaryStatus;
  blueGreen?: BlueGreenStatus;
}

export interface Rollout extends KubeObject {
  metadata: ObjectMeta;
  spec: RolloutSpec;
  status?: RolloutStatus;
}

export interface ReplicaSetStatus {
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
}

export interface ReplicaSet extends KubeObject {
  spec: { replicas: number; selector: { matchLabels: Record<string, string> }; template: PodTemplate };
  status?: ReplicaSetStatus;
}

export interface MetricResult {
  name: string;
  phase: AnalysisPhase;
  measurements: Array<{ phase: AnalysisPhase; value?: string; startedAt: string; finishedAt?: string }>;
  count: number;
  successful: number;
  failed: number;
  inconclusive: number;
  error: number;
  message?: string;
}

export interface AnalysisRun extends KubeObject {
  spec: {
    metrics: Array<{ name: string; provider?: Record<string, unknown>; count?: number; interval?: string; [key: string]: unknown }>;
    args?: Array<{ name: string; value?: string }>;
    terminate?: boolean;
  };
  status?: {
    phase?: AnalysisPhase;
    message?: string;
    startedAt?: string;
    completedAt?: string;
    metricResults?: MetricResult[];
    runSummary?: { count: number; successful: number; failed: number; inconclusive: number; error: number };
    dryRunSummary?: { count: number; successful: number; failed: number; inconclusive: number; error: number };
  };
}

/** Narrowing casts from the store's untyped objects; the store only holds objects of the right kind per type. */
export function asReplicaSet(obj: KubeObject): ReplicaSet {
  return obj as ReplicaSet;
}
export function asAnalysisRun(obj: KubeObject): AnalysisRun {
  return obj as AnalysisRun;
}
