import type { KubeObject, ObjectStore } from "../store/object-store";
import type { ClusterCache } from "./cluster-cache";
import { randomSuffix } from "./hash";
import type { Prng } from "./prng";
import { T } from "./resource-types";
import type { SimClock } from "./sim-clock";
import type { ReplicaSet } from "./types";

/**
 * The ReplicaSet controller and kubelet of the demo cluster (not part of Argo Rollouts): keeps one Pod per
 * replica, makes new Pods Ready after `podReadySeconds` of simulated time, and writes ReplicaSet status.
 */
/** readyAt of a Pod that never becomes Ready. */
const UNSCHEDULABLE = Number.POSITIVE_INFINITY;
/** Labels every simulated node has (the real cluster's kwok node has the same). */
const NODE_LABELS: Record<string, string> = { "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64" };

/** Whether some simulated node matches a Pod's nodeSelector (only the well-known os/arch labels exist). */
function schedulable(nodeSelector: Record<string, string> | undefined): boolean {
  return Object.entries(nodeSelector ?? {}).every(([key, value]) => NODE_LABELS[key] === value);
}

export class WorkloadSimulator {
  /** Pod key → epoch ms when it becomes Ready. */
  private readonly readyAt = new Map<string, number>();

  constructor(
    private readonly store: ObjectStore,
    private readonly cache: ClusterCache,
    private readonly clock: SimClock,
    private readonly prng: Prng,
    private readonly podReadySeconds: number,
  ) {}

  /** Reconciles one ReplicaSet; returns epoch ms of the next pod readiness it waits for, or null. */
  reconcile(rsKey: string): number | null {
    const [namespace, name] = rsKey.split("/");
    const rs = this.store.tryGet(T.replicaSets, namespace, name) as ReplicaSet | undefined;
    if (!rs) return null;
    let pods = this.cache.podsOf(rsKey).filter((p) => !p.metadata.deletionTimestamp);
    const desired = rs.spec.replicas ?? 0;
    for (let i = pods.length; i < desired; i++) pods.push(this.createPod(rs));
    if (pods.length > desired) {
      // Like the ReplicaSet controller: delete not-ready pods first, then the newest.
      const ranked = [...pods].sort((a, b) => this.rank(b) - this.rank(a));
      for (const pod of ranked.slice(0, pods.length - desired)) {
        this.store.delete(T.pods, namespace, pod.metadata.name);
        this.readyAt.delete(`${namespace}/${pod.metadata.name}`);
      }
      pods = ranked.slice(pods.length - desired);
    }
    let nextReady: number | null = null;
    let ready = 0;
    const now = this.clock.now();
    for (const pod of pods) {
      const key = `${namespace}/${pod.metadata.name}`;
      const at = this.readyAt.get(key);
      if (at === undefined) {
        ready++;
        continue;
      }
      if (at <= now) {
        this.markReady(pod);
        this.readyAt.delete(key);
        ready++;
      } else if (at !== UNSCHEDULABLE) nextReady = nextReady === null ? at : Math.min(nextReady, at);
    }
    const status = {
      replicas: pods.length,
      fullyLabeledReplicas: pods.length,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: rs.metadata.generation ?? 1,
    };
    const prev = rs.status ?? {};
    if (
      prev.replicas !== status.replicas ||
      prev.readyReplicas !== status.readyReplicas ||
      prev.availableReplicas !== status.availableReplicas ||
      prev.observedGeneration !== status.observedGeneration
    ) {
      this.store.update(
        T.replicaSets,
        namespace,
        name,
        (draft) => {
          draft.status = status;
        },
        { subresource: "status" },
      );
    }
    return nextReady;
  }

  private rank(pod: KubeObject): number {
    const notReady = this.readyAt.has(`${pod.metadata.namespace}/${pod.metadata.name}`) ? 1e15 : 0;
    return notReady + Date.parse(pod.metadata.creationTimestamp ?? "0");
  }

  /** A new pod of the ReplicaSet, as its controller names and labels it (the template's labels and annotations). */
  private podMetadata(rs: ReplicaSet, namespace: string) {
    return {
      name: `${rs.metadata.name}-${randomSuffix(() => this.prng.next())}`,
      namespace,
      labels: { ...(rs.spec.template.metadata?.labels ?? {}) },
      annotations: { ...(rs.spec.template.metadata?.annotations ?? {}) },
      ownerReferences: [
        { apiVersion: "apps/v1", kind: "ReplicaSet", name: rs.metadata.name, uid: rs.metadata.uid ?? "", controller: true },
      ],
    };
  }

  private createPod(rs: ReplicaSet): KubeObject {
    const namespace = rs.metadata.namespace ?? "default";
    const now = this.clock.iso();
    const containers = rs.spec.template.spec?.containers ?? [{ name: "app", image: "registry.local/app:latest" }];
    if (!schedulable(rs.spec.template.spec?.nodeSelector as Record<string, string> | undefined))
      return this.createUnschedulablePod(rs, namespace, now, containers);
    const pod = this.store.create(T.pods, namespace, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: this.podMetadata(rs, namespace),
      spec: { ...(rs.spec.template.spec ?? {}), containers, nodeName: `node-${this.prng.int(1, 6)}` },
      status: {
        phase: "Pending",
        startTime: now,
        podIP: `10.${this.prng.int(0, 255)}.${this.prng.int(0, 255)}.${this.prng.int(1, 254)}`,
        conditions: [{ type: "Ready", status: "False", lastTransitionTime: now }],
        containerStatuses: containers.map((c) => ({
          name: c.name,
          image: c.image,
          ready: false,
          restartCount: 0,
          started: false,
          state: { waiting: { reason: "ContainerCreating" } },
        })),
      },
    });
    this.readyAt.set(`${namespace}/${pod.metadata.name}`, this.clock.now() + this.clock.realMs(this.podReadySeconds));
    return pod;
  }

  /** No node matches its nodeSelector: Pending with PodScheduled=False (Unschedulable) for good, as the scheduler leaves it. */
  private createUnschedulablePod(
    rs: ReplicaSet,
    namespace: string,
    now: string,
    containers: Array<{ name: string; image?: string }>,
  ): KubeObject {
    const pod = this.store.create(T.pods, namespace, {
      apiVersion: "v1",
      kind: "Pod",
      metadata: this.podMetadata(rs, namespace),
      spec: { ...(rs.spec.template.spec ?? {}), containers },
      status: {
        phase: "Pending",
        conditions: [
          {
            type: "PodScheduled",
            status: "False",
            reason: "Unschedulable",
            message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
            lastTransitionTime: now,
          },
        ],
      },
    });
    this.readyAt.set(`${namespace}/${pod.metadata.name}`, UNSCHEDULABLE);
    return pod;
  }

  private markReady(pod: KubeObject): void {
    const now = this.clock.iso();
    this.store.update(
      T.pods,
      pod.metadata.namespace,
      pod.metadata.name,
      (draft) => {
        const status = (draft.status ?? {}) as Record<string, unknown>;
        const containers = (status.containerStatuses as Array<Record<string, unknown>> | undefined) ?? [];
        draft.status = {
          ...status,
          phase: "Running",
          conditions: [{ type: "Ready", status: "True", lastTransitionTime: now }],
          containerStatuses: containers.map((c) => ({ ...c, ready: true, started: true, state: { running: { startedAt: now } } })),
        };
      },
      { subresource: "status" },
    );
  }
}
