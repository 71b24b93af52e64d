import "server-only";
import { AuthorizationV1Api, CoreV1Api, CustomObjectsApi, KubeConfig } from "@kubernetes/client-node";
import type { ClusterConfig } from "@/lib/config/schema";
import { loadDefaultKubeConfig } from "@/lib/config/default-kubeconfig";

export interface ClusterClients {
  kubeConfig: KubeConfig;
  customObjects: CustomObjectsApi;
  core: CoreV1Api;
  authorization: AuthorizationV1Api;
  /** The API server URL, for logs on the server only. */
  server: string;
}

/** Builds the client-node clients for one configured cluster. Credentials stay in this process. */
export function createClusterClients(cluster: ClusterConfig): ClusterClients {
  const kubeConfig = new KubeConfig();
  if (cluster.inCluster) {
    kubeConfig.loadFromCluster();
  } else {
    if (cluster.kubeconfig?.path) kubeConfig.loadFromFile(cluster.kubeconfig.path);
    else kubeConfig.mergeConfig(loadDefaultKubeConfig());
    if (cluster.kubeconfig?.context) kubeConfig.setCurrentContext(cluster.kubeconfig.context);
  }
  const server = kubeConfig.getCurrentCluster()?.server;
  if (!server) throw new Error(`cluster ${cluster.name}: the kubeconfig context has no server`);
  return {
    kubeConfig,
    customObjects: kubeConfig.makeApiClient(CustomObjectsApi),
    core: kubeConfig.makeApiClient(CoreV1Api),
    authorization: kubeConfig.makeApiClient(AuthorizationV1Api),
    server,
  };
}
