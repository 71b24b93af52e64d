import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { KubeConfig } from "@kubernetes/client-node";
import { stringify } from "yaml";
import { startAnalysisEndpoint, type AnalysisEndpoint } from "@/realcluster/analysis-endpoint";
import { startRealCluster, type RealCluster } from "@/realcluster/cluster";
import { SAMPLE_ROUTER_PLUGIN } from "@/realcluster/manifests";
import { freePort } from "@/realcluster/net";
import { startApiServer, type ApiServerHandle } from "@/sim/apiserver";
import { simulationRbac, simulationUsers } from "@/sim/cluster";
import { startController, type ControllerHandle } from "@/sim/controller";
import { buildKubeconfig } from "@/sim/kubeconfig";
import { T } from "@/sim/controller/resource-types";
import { ObjectStore, type KubeObject } from "@/sim/store/object-store";

/**
 * The two back-ends a conformance scenario runs on: the simulator (its Kubernetes-compatible API server and
 * controller simulator, in-process, at real time) and the real cluster (kube-apiserver, the real Argo Rollouts
 * controller and upstream's sample traffic-router plugin). Both are reached the same way: a kubeconfig context with
 * cluster-admin rights, read through @kubernetes/client-node.
 */
export type BackendName = "sim" | "real";

export interface Backend {
  name: BackendName;
  kubeConfig: KubeConfig;
  /** The controller's Prometheus endpoint. */
  metricsUrl: string;
  /** GET answers {"ok": true|false}; the web metric provider of the analysis scenarios asks it. */
  analysis: AnalysisEndpoint;
  /** Resolves once a new namespace can run pods (the real cluster needs its default ServiceAccount first). */
  namespaceReady(namespace: string): Promise<void>;
  /** Restarts only the Argo Rollouts controller (it reads argo-rollouts-config again); resolves once it is back. */
  restartController(): Promise<void>;
  stop(): Promise<void>;
}

/** The traffic-router plugin both back-ends register (upstream's sample plugin on the real one). */
export const ROUTER_PLUGIN = SAMPLE_ROUTER_PLUGIN;

function adminKubeConfig(file: string, context: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  kc.setCurrentContext(context);
  return kc;
}

/** argo-rollouts-config as the real cluster writes it: the sample plugin registered. */
function pluginConfigMap(): KubeObject {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: { name: "argo-rollouts-config", namespace: "argo-rollouts" },
    data: { trafficRouterPlugins: stringify([{ name: ROUTER_PLUGIN, location: "file:///plugin-bin/trafficrouter-plugin-sample" }]) },
  };
}

/** kwok's "fast" pod stage makes pods Ready about a second after they are created. */
const SIM_POD_READY_SECONDS = 1;

export async function startSimBackend(): Promise<Backend> {
  const dir = mkdtempSync(path.join(tmpdir(), "rollscope-conformance-sim-"));
  const store = new ObjectStore({ now: () => new Date() });
  store.ensureNamespace("argo-rollouts");
  store.create(T.configMaps, "argo-rollouts", pluginConfigMap());
  const users = simulationUsers(1);
  let apiServer: ApiServerHandle | undefined;
  let controller: ControllerHandle | undefined;
  let analysis: AnalysisEndpoint | undefined;
  const stop = async () => {
    await controller?.stop();
    await apiServer?.stop();
    await analysis?.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    apiServer = await startApiServer({ store, users: Object.values(users), rbac: simulationRbac(users) });
    controller = await startController({ store, clusterName: "sim", seed: 1, timeScale: 1, podReadySeconds: SIM_POD_READY_SECONDS });
    analysis = await startAnalysisEndpoint(await freePort());
    const file = path.join(dir, "kubeconfig");
    writeFileSync(file, buildKubeconfig([{ name: "sim-admin", server: apiServer.url, token: users.admin.token }]), { mode: 0o600 });
    const ctl = controller;
    return {
      name: "sim",
      kubeConfig: adminKubeConfig(file, "sim-admin"),
      metricsUrl: ctl.metricsUrl,
      analysis,
      namespaceReady: async () => {},
      restartController: async () => ctl.restart(),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function serviceAccountExists(cluster: RealCluster, namespace: string): Promise<boolean> {
  return (await cluster.kubectl(["get", "serviceaccount", "default", "-n", namespace, "-o", "name", "--ignore-not-found"])).trim() !== "";
}

export async function startRealBackend(log: (line: string) => void): Promise<Backend> {
  const workDir = mkdtempSync(path.join(tmpdir(), "rollscope-conformance-real-"));
  let cluster: RealCluster;
  try {
    cluster = await startRealCluster({ workDir, demo: false, workloads: false, prometheus: false, log });
  } catch (err) {
    rmSync(workDir, { recursive: true, force: true });
    throw err;
  }
  const kubeConfig = adminKubeConfig(cluster.kubeconfigPath, "real-admin");
  return {
    name: "real",
    kubeConfig,
    metricsUrl: cluster.controllerMetricsUrl,
    analysis: cluster.analysis,
    namespaceReady: async (namespace) => {
      const deadline = Date.now() + 60_000;
      while (!(await serviceAccountExists(cluster, namespace))) {
        if (Date.now() > deadline) throw new Error(`no default ServiceAccount in ${namespace} after 60 s`);
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    restartController: () => cluster.restartController(),
    stop: async () => {
      await cluster.stop();
      // ROLLSCOPE_CONFORMANCE_KEEP=1 keeps the controller's logs (<workDir>/logs) for reading.
      if (process.env.ROLLSCOPE_CONFORMANCE_KEEP === "1") log(`kept ${workDir}`);
      else rmSync(workDir, { recursive: true, force: true });
    },
  };
}
