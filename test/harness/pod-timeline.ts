import { CoreV1Api, KubeConfig, Watch, type V1Pod } from "@kubernetes/client-node";

/** One pod as the API server held it at some resourceVersion. */
export interface PodState {
  name: string;
  uid: string;
  /** Not Succeeded or Failed: its containers may run, terminating or not (they run until the grace period ends). */
  running: boolean;
  terminating: boolean;
  /** Ready condition True and not terminating: what a Deployment counts as available (minReadySeconds 0). */
  ready: boolean;
  checksum: string | undefined;
  claims: string[];
}

/** The pods a label selector matched after each change, in the API server's order (one watch, resourceVersion order). */
export interface PodTimeline {
  /** Every state seen: the list's, then one per watch event. */
  readonly states: ReadonlyArray<readonly PodState[]>;
  current(): readonly PodState[];
  /** Why the timeline may miss a change (the watch failed: 410 Gone, or could not resume), or null. */
  gap(): string | null;
  stop(): void;
}

function stateOf(pod: V1Pod): PodState {
  const phase = pod.status?.phase ?? "Pending";
  const terminating = Boolean(pod.metadata?.deletionTimestamp);
  return {
    name: pod.metadata?.name ?? "",
    uid: pod.metadata?.uid ?? "",
    running: phase !== "Succeeded" && phase !== "Failed",
    terminating,
    ready: !terminating && (pod.status?.conditions ?? []).some((c) => c.type === "Ready" && c.status === "True"),
    checksum: pod.metadata?.annotations?.["checksum/config"],
    claims: (pod.spec?.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [])),
  };
}

/**
 * Lists the pods, then watches from the list's resourceVersion, resuming after the last event if the server ends the
 * watch: no change is missed, so what is true of every recorded state was true at every moment the API server
 * recorded (a poll could step over a short overlap).
 */
export async function recordPods(kubeconfigPath: string, namespace: string, labelSelector: string): Promise<PodTimeline> {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const list = await kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace, labelSelector });
  const pods = new Map(list.items.map((p) => [p.metadata?.uid ?? "", stateOf(p)]));
  const states: PodState[][] = [[...pods.values()]];
  let resourceVersion = list.metadata?.resourceVersion ?? "";
  let request: AbortController | undefined;
  let stopped = false;
  let broken: string | null = null;

  const watch = new Watch(kc);
  const start = async (): Promise<void> => {
    request = await watch.watch(
      `/api/v1/namespaces/${namespace}/pods`,
      { labelSelector, resourceVersion, allowWatchBookmarks: true },
      (type: string, obj: V1Pod & { code?: number; message?: string }) => {
        if (type === "ERROR") {
          broken = `watch error ${obj.code}: ${obj.message}`;
          return;
        }
        resourceVersion = obj.metadata?.resourceVersion ?? resourceVersion;
        if (type === "BOOKMARK") return;
        const uid = obj.metadata?.uid ?? "";
        if (type === "DELETED") pods.delete(uid);
        else pods.set(uid, stateOf(obj));
        states.push([...pods.values()]);
      },
      // The server ends a watch after a while, or the connection drops: resume after the last event seen (after a
      // second when it failed, not in a tight loop while the API server refuses).
      (err: unknown) => {
        if (stopped || broken) return;
        const resume = () => {
          if (!stopped) void start().catch((e: unknown) => (broken = `watch could not resume: ${String(e)}`));
        };
        if (err) setTimeout(resume, 1_000);
        else resume();
      },
    );
  };
  await start();

  return {
    states,
    current: () => states[states.length - 1],
    gap: () => broken,
    stop() {
      stopped = true;
      request?.abort();
    },
  };
}
