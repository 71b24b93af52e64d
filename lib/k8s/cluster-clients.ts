import "server-only";
import type { KubeConfig } from "@kubernetes/client-node";
import type { ClusterConfig } from "@/lib/config/schema";
import { rememberSecrets } from "@/lib/errors/known-secrets";
import { GuardedKubeConfig } from "./guarded-kube-config";
import { listKubeconfigSecrets } from "./kubeconfig-secrets";
import { loadDefaultKubeConfig } from "@/lib/config/default-kubeconfig";

export interface ClusterClients {
  /** Every request goes through this transport (lib/k8s/kube-request, the watches, the metrics proxy). */
  kubeConfig: KubeConfig;
}

/**
 * Builds the client-node transport for one configured cluster. Credentials stay in this process: their values are
 * remembered so error text can be scrubbed of them, and a failing credential plugin's output is never passed on.
 */
export function createClusterClients(cluster: ClusterConfig): ClusterClients {
  const kubeConfig = new GuardedKubeConfig();
  if (cluster.inCluster) {
    kubeConfig.loadFromCluster();
  } else {
    if (cluster.kubeconfig?.path) kubeConfig.loadFromFile(cluster.kubeconfig.path);
    else kubeConfig.mergeConfig(loadDefaultKubeConfig());
    if (cluster.kubeconfig?.context) kubeConfig.setCurrentContext(cluster.kubeconfig.context);
  }
  if (!kubeConfig.getCurrentCluster()?.server) throw new Error(`cluster ${cluster.name}: the kubeconfig context has no server`);
  rememberSecrets(listKubeconfigSecrets(kubeConfig.getCurrentUser(), kubeConfig.getCurrentCluster()));
  return { kubeConfig };
}
