import type { KubeObject, ObjectStore } from "../store/object-store";
import { computePodTemplateHash, randomSuffix } from "./hash";
import type { Prng } from "./prng";
import { T } from "./resource-types";
import type { SimClock } from "./sim-clock";

const CONTROLLER_IMAGE = "quay.io/argoproj/argo-rollouts:v1.9.1";
const CONTAINER = "argo-rollouts";

/**
 * The controller's own Pod (`argo-rollouts-<rs-hash>-<suffix>` in the controller namespace), so a dashboard can
 * compare the ConfigMap's change time with status.startTime, and see a crash loop the way kubectl shows one.
 */
export class ControllerPod {
  private name = "";
  private readonly templateHash: string;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: SimClock,
    private readonly prng: Prng,
    private readonly namespace: string,
    clusterName: string,
  ) {
    this.templateHash = computePodTemplateHash({ image: CONTROLLER_IMAGE, cluster: clusterName });
  }

  get podName(): string {
    return this.name;
  }

  /** A rollout restart of the Deployment: the old Pod goes, a new one starts now. */
  replace(): void {
    if (this.name && this.store.tryGet(T.pods, this.namespace, this.name)) this.store.delete(T.pods, this.namespace, this.name);
    this.name = `argo-rollouts-${this.templateHash}-${randomSuffix(() => this.prng.next())}`;
    const now = this.clock.iso();
    this.store.ensureNamespace(this.namespace);
    this.store.create(T.pods, this.namespace, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: {
        name: this.name,
        namespace: this.namespace,
        labels: {
          "app.kubernetes.io/name": "argo-rollouts",
          "app.kubernetes.io/component": "rollouts-controller",
          "app.kubernetes.io/part-of": "argo-rollouts",
          "pod-template-hash": this.templateHash,
        },
        ownerReferences: [
          { apiVersion: "apps/v1", kind: "ReplicaSet", name: `argo-rollouts-${this.templateHash}`, uid: "", controller: true },
        ],
      },
      spec: {
        serviceAccountName: "argo-rollouts",
        containers: [
          {
            name: CONTAINER,
            image: CONTROLLER_IMAGE,
            args: ["--metricsport=8090", "--healthzPort=8080"],
            ports: [
              { name: "metrics", containerPort: 8090 },
              { name: "healthz", containerPort: 8080 },
            ],
            env: [{ name: "POD_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } }],
          },
        ],
      },
      status: this.runningStatus(now, now, 0),
    });
  }

  private runningStatus(
    startTime: string,
    startedAt: string,
    restartCount: number,
    lastState: Record<string, unknown> = {},
  ): Record<string, unknown> {
    return {
      phase: "Running",
      startTime,
      conditions: [{ type: "Ready", status: "True", lastTransitionTime: startedAt }],
      containerStatuses: [
        {
          name: CONTAINER,
          image: CONTROLLER_IMAGE,
          ready: true,
          started: true,
          restartCount,
          state: { running: { startedAt } },
          lastState,
        },
      ],
    };
  }

  private update(mutate: (status: Record<string, unknown>) => Record<string, unknown>): void {
    if (!this.store.tryGet(T.pods, this.namespace, this.name)) return;
    this.store.update(
      T.pods,
      this.namespace,
      this.name,
      (draft: KubeObject) => {
        draft.status = mutate((draft.status ?? {}) as Record<string, unknown>);
      },
      { subresource: "status" },
    );
  }

  /** The container exited with `fatal` and waits `backoffSeconds` before kubelet starts it again. */
  crashed(fatal: string, restartCount: number, backoffSeconds: number, startedAt: string): void {
    const now = this.clock.iso();
    this.update((status) => ({
      ...status,
      phase: "Running",
      conditions: [{ type: "Ready", status: "False", lastTransitionTime: now, reason: "ContainersNotReady" }],
      containerStatuses: [
        {
          name: CONTAINER,
          image: CONTROLLER_IMAGE,
          ready: false,
          started: false,
          restartCount,
          state: {
            waiting: {
              reason: "CrashLoopBackOff",
              message: `back-off ${backoffSeconds}s restarting failed container=${CONTAINER} pod=${this.name}_${this.namespace}`,
            },
          },
          lastState: { terminated: { exitCode: 1, reason: "Error", message: `level=fatal msg="${fatal}"`, startedAt, finishedAt: now } },
        },
      ],
    }));
  }

  /** The container came up (after a crash: restartCount kept, lastState keeps the crash). */
  running(restartCount: number): void {
    const now = this.clock.iso();
    this.update((status) => {
      const previous = (status.containerStatuses as Array<Record<string, unknown>> | undefined)?.[0];
      return this.runningStatus(String(status.startTime ?? now), now, restartCount, (previous?.lastState as Record<string, unknown>) ?? {});
    });
  }
}
