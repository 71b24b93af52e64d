import "server-only";
import type { KubernetesListObject, KubernetesObject } from "@kubernetes/client-node";
import type { RolloutWorkload } from "@/lib/contracts/rollout-workload";
import type { ClusterWatcher } from "@/lib/fleet/cluster-watcher";
import { kubeRequest } from "@/lib/k8s/kube-request";
import { formatLabelSelector } from "@/lib/rollouts/label-selector";
import { deriveRolloutInfo } from "@/lib/rollouts/rollout-info";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import type { RolloutResource } from "@/lib/rollouts/schema";
import { messageOf } from "@/lib/errors/message-of";
import { parseAnalysisRun } from "@/lib/rollouts/analysis-run-schema";
import {
  parseExperiment,
  parsePod,
  parseReplicaSet,
  type ExperimentResource,
  type PodResource,
  type ReplicaSetResource,
} from "@/lib/rollouts/workload-schema";
import type { AppContext } from "@/lib/server/app-context";
import { fetchRawRolloutOrThrow } from "./rollout-lookup";

async function listBySelector(watcher: ClusterWatcher, path: string, labelSelector: string): Promise<unknown[]> {
  const list = await kubeRequest<KubernetesListObject<KubernetesObject>>(watcher.clients.kubeConfig, path, { query: { labelSelector } });
  return list.items ?? [];
}

/** The Rollout's ReplicaSets (by its selector, kept when it owns them) and their Pods, as upstream's undo and get list them. */
async function listRolloutReplicaSets(
  watcher: ClusterWatcher,
  rollout: RolloutResource,
): Promise<{ replicaSets: ReplicaSetResource[]; pods: PodResource[] }> {
  const namespace = encodeURIComponent(rollout.metadata.namespace ?? "default");
  const selector = formatLabelSelector(rollout.spec?.selector);
  const [rsItems, podItems] = await Promise.all([
    listBySelector(watcher, `/apis/apps/v1/namespaces/${namespace}/replicasets`, selector),
    listBySelector(watcher, `/api/v1/namespaces/${namespace}/pods`, selector),
  ]);
  const replicaSets = rsItems.map(parseReplicaSet).flatMap((r) => (r.ok ? [r.replicaSet] : []));
  const pods = podItems.map(parsePod).flatMap((p) => (p.ok ? [p.pod] : []));
  return { replicaSets, pods };
}

/**
 * The Experiments of the Rollout's namespace (the caller keeps those it owns by uid). Partial failure is data: a
 * dashboard without `list experiments` still shows the revisions, with why the experiments are missing.
 */
async function listExperiments(
  watcher: ClusterWatcher,
  namespace: string,
): Promise<{ experiments: ExperimentResource[]; error: string | null }> {
  try {
    const list = await kubeRequest<KubernetesListObject<KubernetesObject>>(
      watcher.clients.kubeConfig,
      `/apis/argoproj.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/experiments`,
    );
    return { experiments: (list.items ?? []).map(parseExperiment).flatMap((e) => (e.ok ? [e.experiment] : [])), error: null };
  } catch (err) {
    return { experiments: [], error: `Experiments could not be listed: ${messageOf(err)}` };
  }
}

/** Revisions with ReplicaSets and Pods, the Experiments, and the CLI's numbers for one Rollout, read from the cluster now. */
export async function getRolloutWorkload(app: AppContext, target: RolloutRef): Promise<RolloutWorkload> {
  const watcher = app.fleet.clusterOrThrow(target.cluster);
  const { raw } = await fetchRawRolloutOrThrow(watcher, target.namespace, target.name);
  const [{ replicaSets, pods }, experiments] = await Promise.all([
    listRolloutReplicaSets(watcher, raw),
    listExperiments(watcher, raw.metadata.namespace ?? target.namespace),
  ]);
  // An Experiment's AnalysisRuns come from the watch, which keeps every AnalysisRun of the cluster.
  const analysisRuns = experiments.experiments.length
    ? watcher.objects("analysisruns").flatMap((obj) => {
        const parsed = parseAnalysisRun(obj);
        return parsed.ok ? [parsed.analysisRun] : [];
      })
    : [];
  return {
    info: deriveRolloutInfo(raw, replicaSets, pods, { experiments: experiments.experiments, analysisRuns }),
    experimentsError: experiments.error,
    readAt: new Date(app.now()).toISOString(),
  };
}
