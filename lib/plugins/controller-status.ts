import { z } from "zod";

/** One Pod of the Argo Rollouts controller, as `kubectl get pod` would show it. */
export interface ControllerPodView {
  name: string;
  phase: string;
  ready: boolean;
  /** `Running`, or the waiting/terminated reason (`CrashLoopBackOff`, `ImagePullBackOff`…). */
  state: string;
  restarts: number;
  startedAt: string | null;
  node: string | null;
  image: string | null;
}

export interface ControllerDeploymentView {
  name: string;
  desired: number;
  ready: number;
  available: number;
  updated: number;
  image: string | null;
}

/** The controller of one cluster: its version (from the image tag), Deployment and Pods. */
export interface ControllerStatusView {
  namespace: string;
  version: string | null;
  deployment: ControllerDeploymentView | null;
  /** Why there is no Deployment to show (not found, not permitted, not served). */
  deploymentNote: string | null;
  pods: ControllerPodView[];
}

const containerSchema = z.looseObject({ name: z.string().optional(), image: z.string().optional() });

const deploymentSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), labels: z.record(z.string(), z.string()).optional() }),
  spec: z
    .looseObject({
      replicas: z.number().optional(),
      template: z.looseObject({ spec: z.looseObject({ containers: z.array(containerSchema).optional() }).optional() }).optional(),
    })
    .optional(),
  status: z
    .looseObject({ readyReplicas: z.number().optional(), availableReplicas: z.number().optional(), updatedReplicas: z.number().optional() })
    .optional(),
});

const containerStatusSchema = z.looseObject({
  name: z.string().optional(),
  image: z.string().optional(),
  ready: z.boolean().optional(),
  restartCount: z.number().optional(),
  state: z
    .looseObject({
      running: z.looseObject({ startedAt: z.string().optional() }).optional(),
      waiting: z.looseObject({ reason: z.string().optional() }).optional(),
      terminated: z.looseObject({ reason: z.string().optional() }).optional(),
    })
    .optional(),
});

const podSchema = z.looseObject({
  metadata: z.looseObject({ name: z.string(), labels: z.record(z.string(), z.string()).optional() }),
  spec: z.looseObject({ nodeName: z.string().optional(), containers: z.array(containerSchema).optional() }).optional(),
  status: z
    .looseObject({
      phase: z.string().optional(),
      startTime: z.string().optional(),
      containerStatuses: z.array(containerStatusSchema).optional(),
    })
    .optional(),
});

const CONTROLLER = "argo-rollouts";

/** Upstream's install manifests label the controller `app.kubernetes.io/name: argo-rollouts` and name it so. */
function isController(metadata: { name: string; labels?: Record<string, string> }): boolean {
  const label = metadata.labels?.["app.kubernetes.io/name"];
  if (label !== undefined) return label === CONTROLLER;
  return (metadata.name === CONTROLLER || metadata.name.startsWith(`${CONTROLLER}-`)) && !metadata.name.includes("dashboard");
}

/** `quay.io/argoproj/argo-rollouts:v1.9.1` → `v1.9.1`; a digest-only or untagged image has no version. */
export function imageVersion(image: string | null | undefined): string | null {
  if (!image) return null;
  const withoutDigest = image.split("@")[0];
  const lastSlash = withoutDigest.lastIndexOf("/");
  const colon = withoutDigest.indexOf(":", lastSlash + 1);
  return colon === -1 ? null : withoutDigest.slice(colon + 1) || null;
}

const controllerContainer = <C extends { name?: string }>(containers: readonly C[] | undefined): C | undefined =>
  containers?.find((c) => c.name === CONTROLLER) ?? containers?.[0];

function toPodView(pod: z.infer<typeof podSchema>): ControllerPodView {
  const status = controllerContainer(pod.status?.containerStatuses);
  const state =
    status?.state?.waiting?.reason ??
    status?.state?.terminated?.reason ??
    (status?.state?.running ? "Running" : (pod.status?.phase ?? "Unknown"));
  return {
    name: pod.metadata.name,
    phase: pod.status?.phase ?? "Unknown",
    ready: status?.ready ?? false,
    state,
    restarts: status?.restartCount ?? 0,
    startedAt: status?.state?.running?.startedAt ?? pod.status?.startTime ?? null,
    node: pod.spec?.nodeName ?? null,
    image: status?.image ?? controllerContainer(pod.spec?.containers)?.image ?? null,
  };
}

function toDeploymentView(deployment: z.infer<typeof deploymentSchema>): ControllerDeploymentView {
  return {
    name: deployment.metadata.name,
    desired: deployment.spec?.replicas ?? 1,
    ready: deployment.status?.readyReplicas ?? 0,
    available: deployment.status?.availableReplicas ?? 0,
    updated: deployment.status?.updatedReplicas ?? 0,
    image: controllerContainer(deployment.spec?.template?.spec?.containers)?.image ?? null,
  };
}

/**
 * The controller from its Deployment (when the API serves and lets us read one) and its Pods. The version is the
 * Deployment's image tag, else the running Pods' (upstream publishes `quay.io/argoproj/argo-rollouts:<version>`).
 */
export function describeControllerStatus(input: {
  namespace: string;
  pods: readonly unknown[];
  deployments: readonly unknown[] | null;
  deploymentNote: string | null;
}): ControllerStatusView {
  const pods = input.pods.flatMap((raw) => {
    const parsed = podSchema.safeParse(raw);
    return parsed.success && isController(parsed.data.metadata) ? [toPodView(parsed.data)] : [];
  });
  pods.sort((a, b) => a.name.localeCompare(b.name));
  const found = (input.deployments ?? []).flatMap((raw) => {
    const parsed = deploymentSchema.safeParse(raw);
    return parsed.success && isController(parsed.data.metadata) ? [toDeploymentView(parsed.data)] : [];
  });
  const deployment = found[0] ?? null;
  const note =
    input.deploymentNote ??
    (deployment === null && input.deployments !== null ? `no argo-rollouts Deployment in ${input.namespace}` : null);
  return {
    namespace: input.namespace,
    version: imageVersion(deployment?.image) ?? pods.map((p) => imageVersion(p.image)).find((v) => v !== null) ?? null,
    deployment,
    deploymentNote: note,
    pods,
  };
}
