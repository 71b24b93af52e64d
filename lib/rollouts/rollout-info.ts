import type { StepPosition } from "./step-position";
import { deriveMaxTrafficWeight } from "./max-traffic-weight";
import { deriveRolloutPhase } from "./phase";
import type { RolloutResource } from "./schema";
import { findCurrentStep, listCanarySteps } from "./steps";
import { deriveRequestedWeight } from "./weights";
import type { AnalysisRunResource } from "./analysis-run-schema";
import { isOwnedByUid } from "./analysis-runs";
import type { ContainerStatus, ExperimentResource, PodResource, ReplicaSetResource } from "./workload-schema";

/*
 * A port of upstream's `pkg/kubectl-argo-rollouts/info` (rollout_info.go, replicaset_info.go, pod_info.go at
 * v1.9.1): the numbers `kubectl argo rollouts get rollout` prints, so the dashboard and the CLI agree.
 */

export type ReplicaSetRole = "stable" | "canary" | "active" | "preview" | "ping" | "pong";

export interface PodInfoView {
  name: string;
  /** Upstream's pod status: the phase, or the reason a container waits or terminated (CrashLoopBackOff, Init:0/1…). */
  status: string;
  /** "ready/total" containers. */
  ready: string;
  restarts: number;
  createdAt: string | null;
  node: string | null;
}

export interface ReplicaSetInfoView {
  name: string;
  uid: string | null;
  revision: number;
  /** Healthy, Progressing, ScaledDown or ReplicaFailure (`getReplicaSetHealth`). */
  status: string;
  roles: ReplicaSetRole[];
  images: string[];
  desired: number;
  replicas: number;
  ready: number;
  available: number;
  createdAt: string | null;
  /** `scale-down-deadline` annotation (RFC 3339) or null. */
  scaleDownDeadline: string | null;
  /** An Experiment's ReplicaSet: its template's name (`experiment.argoproj.io/template-name`); null otherwise. */
  template: string | null;
  pods: PodInfoView[];
}

/** One Experiment of the Rollout (`ExperimentInfo`): its ReplicaSets (with pods) and AnalysisRuns, owned by its uid. */
export interface ExperimentInfoView {
  name: string;
  uid: string | null;
  revision: number;
  /** The Experiment's phase (Pending, Running, Successful, Failed, Error, Inconclusive). */
  status: string;
  message: string;
  createdAt: string | null;
  replicaSets: ReplicaSetInfoView[];
  analysisRuns: Array<{ name: string; status: string; createdAt: string | null }>;
}

export interface ImageInfoView {
  image: string;
  /** Roles of the Rollout's ReplicaSets running it, and `Σ:<template>` for an Experiment's. */
  tags: string[];
}

/** What `get rollout` prints above its tree, and the tree's ReplicaSets and Pods. */
export interface RolloutInfoView {
  status: string;
  message: string;
  strategy: "Canary" | "BlueGreen" | "";
  /** `currentStepIndex/len(steps)` as upstream prints it ("" without steps or before the controller set the index). */
  step: string;
  /** The same position for display (formatStepPositionWithCliIndex); null where `step` is "". */
  stepPosition: StepPosition | null;
  /** Desired weight in maxTrafficWeight units (canary only). */
  setWeight: number | null;
  /** Upstream's ActualWeight (canary only); null when it needs ReplicaSets that were not given. */
  actualWeight: number | null;
  images: ImageInfoView[];
  /** Newest revision among the ReplicaSets, as the tree's first `revision:N`. */
  revision: number | null;
  replicaSets: ReplicaSetInfoView[];
  /** The Rollout's Experiments (owned by its uid), newest revision first, as the CLI's tree lists them under `Σ`. */
  experiments: ExperimentInfoView[];
}

const REVISION_ANNOTATION = "rollout.argoproj.io/revision";
const SCALE_DOWN_DEADLINE_ANNOTATION = "scale-down-deadline";
const POD_TEMPLATE_HASH_LABEL = "rollouts-pod-template-hash";
/** `v1alpha1.ExperimentTemplateNameAnnotationKey`: set on the ReplicaSets an Experiment creates. */
const EXPERIMENT_TEMPLATE_ANNOTATION = "experiment.argoproj.io/template-name";

/** `info.go` parseRevision: strconv.Atoi of the annotation, 0 when missing or not a number. */
function parseRevision(annotations: Record<string, string> | undefined): number {
  const value = annotations?.[REVISION_ANNOTATION];
  return value !== undefined && /^[+-]?\d+$/.test(value) ? Number(value) : 0;
}

/** Upstream's Step: `"<currentStepIndex>/<len(steps)>"` for a canary with steps once the index is set. */
export function deriveCliStep(rollout: RolloutResource): string {
  const index = rollout.status?.currentStepIndex;
  const total = listCanarySteps(rollout).length;
  if (!rollout.spec?.strategy?.canary || index === undefined || total === 0) return "";
  return `${index}/${total}`;
}

/**
 * Upstream's ActualWeight (rollout_info.go): the maximum without a current step; 0 while no pod is available;
 * with traffic routing `status.canary.weights.canary.weight` (the set weight before the controller wrote weights);
 * without it the canary ReplicaSet's share of available pods, `available × max ÷ status.availableReplicas`
 * (integer division). Null for blue-green, and when it needs the ReplicaSets and `replicaSets` is null.
 */
export function deriveActualWeight(rollout: RolloutResource, replicaSets: readonly ReplicaSetInfoView[] | null): number | null {
  const canary = rollout.spec?.strategy?.canary;
  if (!canary) return null;
  const max = deriveMaxTrafficWeight(rollout);
  if (findCurrentStep(rollout) === null) return max;
  const available = rollout.status?.availableReplicas ?? 0;
  if (available <= 0) return 0;
  if (canary.trafficRouting) {
    return rollout.status?.canary?.weights?.canary.weight ?? deriveRequestedWeight(rollout)?.weight ?? 0;
  }
  if (replicaSets === null) return null;
  let weight = 0;
  for (const rs of replicaSets) if (rs.roles.includes("canary")) weight = Math.trunc((rs.available * max) / available);
  return weight;
}

function isOwnedBy(obj: { metadata: { ownerReferences?: { uid: string }[] } }, uids: ReadonlySet<string>): string | null {
  return obj.metadata.ownerReferences?.find((ref) => uids.has(ref.uid))?.uid ?? null;
}

/** `getReplicaSetHealth`. */
function replicaSetHealth(rs: ReplicaSetResource): string {
  const desired = rs.spec?.replicas;
  if ((rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0)) return "Progressing";
  const failure = rs.status?.conditions?.find((c) => c.type === "ReplicaFailure");
  if (failure?.status === "True") return "ReplicaFailure";
  if (desired !== undefined && (rs.status?.availableReplicas ?? 0) < desired) return "Progressing";
  return desired === 0 ? "ScaledDown" : "Healthy";
}

/** The stable/canary/active/preview/ping/pong flags of `GetReplicaSetInfo`. */
function replicaSetRoles(rollout: RolloutResource, hash: string | undefined): ReplicaSetRole[] {
  const status = rollout.status;
  const roles: ReplicaSetRole[] = [];
  const canary = rollout.spec?.strategy?.canary;
  const hashOf = (value: string | undefined) => (value ?? "") === (hash ?? "");
  if (canary) {
    const pingPong = canary.pingPong !== undefined;
    const stableIsPing = status?.canary?.stablePingPong === "ping";
    if (hashOf(status?.stableRS)) {
      roles.push("stable");
      if (pingPong) roles.push(stableIsPing ? "ping" : "pong");
    } else if (hashOf(status?.currentPodHash)) {
      roles.push("canary");
      if (pingPong) roles.push(stableIsPing ? "pong" : "ping");
    }
  }
  if (rollout.spec?.strategy?.blueGreen) {
    if (hashOf(status?.stableRS)) roles.push("stable");
    if (hashOf(status?.blueGreen?.activeSelector)) roles.push("active");
    else if (hashOf(status?.blueGreen?.previewSelector)) roles.push("preview");
  }
  return roles;
}

/** The init-container loop of `newPodInfo`: the reason while initializing, with the restarts counted up to it. */
function initContainerState(pod: PodResource): { reason: string; restarts: number } | null {
  const statuses = pod.status?.initContainerStatuses ?? [];
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === "Always").map((c) => c.name));
  let restarts = 0;
  for (const [i, c] of statuses.entries()) {
    restarts += c.restartCount ?? 0;
    const terminated = c.state?.terminated;
    if (terminated && (terminated.exitCode ?? 0) === 0) continue;
    if (terminated) {
      if (terminated.reason) return { reason: `Init:${terminated.reason}`, restarts };
      return { reason: terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode ?? 0}`, restarts };
    }
    if (c.name !== undefined && sidecars.has(c.name) && c.started === true) {
      if (c.ready) continue;
      return null; // upstream leaves the loop here without marking the pod initializing
    }
    const waiting = c.state?.waiting?.reason;
    if (waiting && waiting !== "PodInitializing") return { reason: `Init:${waiting}`, restarts };
    return { reason: `Init:${i}/${pod.spec?.initContainers?.length ?? 0}`, restarts };
  }
  return null;
}

function containerReason(c: ContainerStatus): string | null {
  const { waiting, terminated } = c.state ?? {};
  if (waiting?.reason) return waiting.reason;
  if (terminated?.reason) return terminated.reason;
  if (terminated) return terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode ?? 0}`;
  return null;
}

/** `newPodInfo` (pod_info.go): the status kubectl shows, ready containers and restarts. */
export function toPodInfo(pod: PodResource): PodInfoView {
  let reason = pod.status?.reason || pod.status?.phase || "";
  let restarts = 0;
  let ready = 0;
  const init = initContainerState(pod);
  if (init !== null) {
    ({ reason, restarts } = init);
  } else {
    let hasRunning = false;
    for (const c of [...(pod.status?.containerStatuses ?? [])].reverse()) {
      restarts += c.restartCount ?? 0;
      const why = containerReason(c);
      if (why !== null) reason = why;
      else if (c.ready && c.state?.running) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === "Completed" && hasRunning) reason = "Running";
  }
  if (pod.metadata.deletionTimestamp) reason = pod.status?.reason === "NodeLost" ? "Unknown" : "Terminating";
  return {
    name: pod.metadata.name,
    status: reason,
    ready: `${ready}/${pod.spec?.containers?.length ?? 0}`,
    restarts,
    createdAt: pod.metadata.creationTimestamp ?? null,
    node: pod.spec?.nodeName ?? null,
  };
}

function byCreationThenName(a: { createdAt: string | null; name: string }, b: { createdAt: string | null; name: string }): number {
  const at = (a.createdAt ?? "").localeCompare(b.createdAt ?? "");
  return at !== 0 ? at : a.name.localeCompare(b.name);
}

/**
 * `GetReplicaSetInfo` + `addPodInfos`: the Rollout's own ReplicaSets (by ownerReference UID), newest revision first
 * (then by name, as upstream's sort ends up doing), each with its Pods (by ownerReference), oldest first.
 */
function toReplicaSetInfos(
  rollout: RolloutResource,
  replicaSets: readonly ReplicaSetResource[],
  pods: readonly PodResource[],
): ReplicaSetInfoView[] {
  return replicaSetInfosOwnedBy(rollout.metadata.uid ?? "", replicaSets, pods, (rs) =>
    replicaSetRoles(rollout, rs.metadata.labels?.[POD_TEMPLATE_HASH_LABEL]),
  );
}

function replicaSetInfosOwnedBy(
  ownerUid: string,
  replicaSets: readonly ReplicaSetResource[],
  pods: readonly PodResource[],
  rolesOf: (rs: ReplicaSetResource) => ReplicaSetRole[],
): ReplicaSetInfoView[] {
  const owner = new Set([ownerUid]);
  const infos = replicaSets
    .filter((rs) => ownerUid !== "" && isOwnedBy(rs, owner) !== null)
    .map((rs): ReplicaSetInfoView => ({
      name: rs.metadata.name,
      uid: rs.metadata.uid ?? null,
      revision: parseRevision(rs.metadata.annotations),
      status: replicaSetHealth(rs),
      roles: rolesOf(rs),
      images: (rs.spec?.template?.spec?.containers ?? []).map((c) => c.image ?? ""),
      desired: rs.spec?.replicas ?? 1,
      replicas: rs.status?.replicas ?? 0,
      ready: rs.status?.readyReplicas ?? 0,
      available: rs.status?.availableReplicas ?? 0,
      createdAt: rs.metadata.creationTimestamp ?? null,
      scaleDownDeadline: rs.metadata.annotations?.[SCALE_DOWN_DEADLINE_ANNOTATION] ?? null,
      template: rs.metadata.annotations?.[EXPERIMENT_TEMPLATE_ANNOTATION] ?? null,
      pods: [],
    }))
    .sort((a, b) => b.revision - a.revision || a.name.localeCompare(b.name));
  const byUid = new Map(infos.map((info) => [info.uid ?? "", info]));
  const uids = new Set(byUid.keys());
  for (const pod of pods) {
    const ownerUid = isOwnedBy(pod, uids);
    if (ownerUid !== null) byUid.get(ownerUid)?.pods.push(toPodInfo(pod));
  }
  for (const info of infos) info.pods.sort(byCreationThenName);
  return infos;
}

/**
 * `getExperimentInfo` + `NewExperimentInfo` (info/experiment_info.go): the Experiments the Rollout owns (by uid, in
 * its namespace; never by name), each with the ReplicaSets and AnalysisRuns it owns by uid; newest revision first.
 */
function toExperimentInfos(
  rollout: RolloutResource,
  experiments: readonly ExperimentResource[],
  replicaSets: readonly ReplicaSetResource[],
  analysisRuns: readonly AnalysisRunResource[],
  pods: readonly PodResource[],
): ExperimentInfoView[] {
  const owner = { uid: rollout.metadata.uid ?? null, namespace: rollout.metadata.namespace ?? "" };
  return experiments
    .filter((ex) => isOwnedByUid(ex.metadata, owner))
    .map((ex): ExperimentInfoView => {
      const uid = ex.metadata.uid ?? null;
      const own = { uid, namespace: ex.metadata.namespace ?? "" };
      return {
        name: ex.metadata.name,
        uid,
        revision: parseRevision(ex.metadata.annotations),
        status: ex.status?.phase ?? "",
        message: ex.status?.message ?? "",
        createdAt: ex.metadata.creationTimestamp ?? null,
        replicaSets: uid ? replicaSetInfosOwnedBy(uid, replicaSets, pods, () => []) : [],
        analysisRuns: analysisRuns
          .filter((run) => isOwnedByUid(run.metadata, own))
          .map((run) => ({ name: run.metadata.name, status: run.status?.phase ?? "", createdAt: run.metadata.creationTimestamp ?? null }))
          .sort((a, b) => (a.createdAt ?? "").localeCompare(b.createdAt ?? "") || a.name.localeCompare(b.name)),
      };
    })
    .sort((a, b) => b.revision - a.revision || (a.createdAt ?? "").localeCompare(b.createdAt ?? ""));
}

/** The order `Images` appends a ReplicaSet's tags in. */
const TAG_ORDER: readonly ReplicaSetRole[] = ["canary", "stable", "active", "preview", "ping", "pong"];

function mergeImageAndTags(byImage: Map<string, string[]>, image: string, tags: string[]): void {
  const existing = byImage.get(image);
  byImage.set(image, existing ? [...new Set([...existing, ...tags])].sort() : tags);
}

/**
 * `Images` + `mergeImageAndTags`: every image of a ReplicaSet with replicas, sorted by image. A first occurrence
 * keeps its tags in upstream's order (canary, stable, active, preview, ping, pong: "stable, active"); an image
 * seen again gets the union of tags sorted alphabetically, as `mergeTags` does. Then each Experiment's images
 * (`ExperimentInfo.Images`): its ReplicaSets with replicas, tagged `Σ:<template>`.
 */
function deriveImages(replicaSets: readonly ReplicaSetInfoView[], experiments: readonly ExperimentInfoView[] = []): ImageInfoView[] {
  const byImage = new Map<string, string[]>();
  for (const rs of replicaSets) {
    if (rs.replicas <= 0) continue;
    const tags = TAG_ORDER.filter((tag) => rs.roles.includes(tag));
    for (const image of rs.images) mergeImageAndTags(byImage, image, tags);
  }
  for (const ex of experiments) {
    for (const rs of ex.replicaSets) {
      if (rs.replicas <= 0) continue;
      for (const image of rs.images) mergeImageAndTags(byImage, image, rs.template ? [`Σ:${rs.template}`] : []);
    }
  }
  return [...byImage.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([image, tags]) => ({ image, tags }));
}

/** `NewRolloutInfo` without the Rollout's own analysis runs: what `kubectl argo rollouts get rollout` prints. */
export function deriveRolloutInfo(
  rollout: RolloutResource,
  replicaSets: readonly ReplicaSetResource[],
  pods: readonly PodResource[],
  owned: { experiments: readonly ExperimentResource[]; analysisRuns: readonly AnalysisRunResource[] } = {
    experiments: [],
    analysisRuns: [],
  },
): RolloutInfoView {
  const infos = toReplicaSetInfos(rollout, replicaSets, pods);
  const experiments = toExperimentInfos(rollout, owned.experiments, replicaSets, owned.analysisRuns, pods);
  const { phase, message } = deriveRolloutPhase(rollout);
  const strategy = rollout.spec?.strategy?.canary ? "Canary" : rollout.spec?.strategy?.blueGreen ? "BlueGreen" : "";
  return {
    status: phase,
    message,
    strategy,
    step: deriveCliStep(rollout),
    stepPosition: deriveCliStep(rollout)
      ? { index: rollout.status?.currentStepIndex ?? null, total: listCanarySteps(rollout).length }
      : null,
    setWeight: strategy === "Canary" ? (deriveRequestedWeight(rollout)?.weight ?? null) : null,
    actualWeight: deriveActualWeight(rollout, infos),
    images: deriveImages(infos, experiments),
    revision: infos.length > 0 ? Math.max(...infos.map((rs) => rs.revision)) : null,
    replicaSets: infos,
    experiments,
  };
}
