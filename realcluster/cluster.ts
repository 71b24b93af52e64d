import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { simulationUsers, type SimulationUsers } from "../sim/cluster";
import { startAnalysisEndpoint, type AnalysisEndpoint } from "./analysis-endpoint";
import { ensureToolchain, type Toolchain } from "./build";
import { runKubectl, writeAdminKubeconfig, writeClusterRollscopeConfig, writeTokenKubeconfig } from "./client-config";
import { ARGO_ROLLOUTS_VERSION, KUBERNETES_VERSION } from "./components";
import {
  startApiServer,
  startControllers,
  startEtcd,
  startPrometheus,
  startRolloutsController,
  type Launcher,
  type Ports,
} from "./control-plane";
import { newProxyToken, startDataPlane, TRAEFIK_MEASURED_TRAFFIC, type DataPlane, type DataPlaneInfo } from "./data-plane";
import { startDemoDriver, type DemoDriverMode } from "./demo-driver";
import { DEMO_ROLLOUTS, demoWorkloads } from "./demo-workloads";
import { bootstrapObjects, DEMO_NAMESPACE, FAKE_NODE, SAMPLE_ROUTER_PLUGIN, toYaml, type K8sObject } from "./manifests";
import { assertPortFree, freePort, waitUntil } from "./net";
import { generatePki } from "./pki";
import { ProcessGroup, type ProcessExitError } from "./processes";
import { preparePluginMeters, type PluginMetersInfo } from "./plugin-meters";
import { findPrometheus } from "./prometheus";

export type { Ports } from "./control-plane";

export const CLUSTER_NAME = "real";

export interface RealClusterOptions {
  /** Working folder (certificates, etcd data, the controller's plugin copies, logs/); emptied at start. */
  workDir: string;
  /** Ports basePort…basePort+11; default: free ports. */
  basePort?: number;
  /** Where to write the kubeconfig for Rollscope; default <workDir>/kubeconfig. */
  kubeconfigPath?: string;
  /** Where to write the Rollscope configuration; default <workDir>/rollscope.yaml. */
  rollscopeConfigPath?: string;
  /** "once": start one new revision of every demo Rollout; "loop": keep starting them; false: leave them at v1. */
  demo?: DemoDriverMode | false;
  /** Apply the demo workloads in namespace `demo` (default true; conformance tests bring their own). */
  workloads?: boolean;
  /** Start Debian's Prometheus scraping the controller (default true). */
  prometheus?: boolean;
  /**
   * Start the data plane: Traefik following the Ingresses, the pods' network answering for every Running pod, the
   * control endpoint; with `demo`, a steady load through Traefik to the routed demo canary. Default: with the demo
   * workloads (a cluster started with `workloads: false` brings its own objects and no traffic).
   */
  dataPlane?: boolean;
  /** Seed of the static tokens (the simulator's users for the same seed); default 1. */
  seed?: number;
  log?: (line: string) => void;
  /** A component exited after start-up; the caller should stop the cluster. */
  onFailure?: (error: ProcessExitError) => void;
}

export interface RealCluster {
  name: string;
  versions: { kubernetes: string; argoRollouts: string };
  toolchain: Toolchain;
  ports: Ports;
  workDir: string;
  logsDir: string;
  apiServerUrl: string;
  /** Rollscope's kubeconfig: contexts `real` (the dashboard identity), `real-admin`, `real-alice`, `real-bob`. */
  kubeconfigPath: string;
  /** Client-certificate kubeconfig of the control plane (system:masters). */
  adminKubeconfigPath: string;
  rollscopeConfigPath: string;
  controllerMetricsUrl: string;
  prometheusUrl?: string;
  /** Traefik, the pods' network and the control endpoint (also in `<workDir>/data-plane.json`). */
  dataPlane?: DataPlaneInfo;
  /** Every plugin's rollscope-plugin-meter (its /metrics address) and the faulty router's control endpoint. */
  pluginMeters: PluginMetersInfo;
  analysis: AnalysisEndpoint;
  users: SimulationUsers;
  /** The built kubectl (the server's version) against the cluster as admin. */
  kubectl(args: string[], input?: string): Promise<string>;
  /**
   * Stops the Argo Rollouts controller process (and the plugins it started) and starts a new one on the same ports,
   * as a `kubectl rollout restart` of its Deployment would: it reads argo-rollouts-config again. Everything else keeps
   * running. Resolves once the new one answers /healthz.
   */
  restartController(): Promise<void>;
  stop(): Promise<void>;
}

const PORT_NAMES: Array<[keyof Ports, string]> = [
  ["etcdClient", "etcd client"],
  ["etcdPeer", "etcd peer"],
  ["apiServer", "kube-apiserver"],
  ["controllerMetrics", "Argo Rollouts metrics"],
  ["controllerHealthz", "Argo Rollouts healthz"],
  ["analysis", "analysis endpoint"],
  ["prometheus", "Prometheus"],
  ["proxy", "Traefik entry point"],
  ["proxyMetrics", "Traefik metrics"],
  ["apiGate", "Traefik's API gate"],
  ["podNetwork", "pods' network"],
  ["dataPlane", "data plane control"],
];

/** Refuses a working folder another live cluster uses (starting would delete its etcd data and certificates). */
function claimWorkDir(workDir: string): void {
  const owner = path.join(workDir, "owner.pid");
  const pid = existsSync(owner) ? Number(readFileSync(owner, "utf8")) : NaN;
  if (pid > 0 && pid !== process.pid && isAlive(pid)) {
    throw new Error(`another real cluster (process ${pid}) runs from ${workDir}: stop it first, or use another --work-dir`);
  }
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(path.join(workDir, "logs"), { recursive: true });
  writeFileSync(owner, String(process.pid));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function choosePorts(basePort?: number): Promise<Ports> {
  const ports = {} as Ports;
  for (const [i, [key, what]] of PORT_NAMES.entries()) {
    ports[key] = basePort ? basePort + i : await freePort();
    await assertPortFree(ports[key], what);
  }
  return ports;
}

type Kubectl = RealCluster["kubectl"];

/** Namespaces, the simulator's identities as RBAC, the fake node, the CRDs and argo-rollouts-config. */
async function applyBootstrap(kubectl: Kubectl, users: SimulationUsers, toolchain: Toolchain, configMap: K8sObject): Promise<void> {
  await kubectl(["apply", "--server-side", "-f", "-"], toYaml(bootstrapObjects(users)));
  const crds = ["argo-rollouts-crds.yaml", "gateway-api-crds.yaml"].flatMap((f) => ["-f", path.join(toolchain.manifestsDir, f)]);
  await kubectl(["apply", "--server-side", ...crds]);
  await kubectl(["apply", "--server-side", "-f", "-"], toYaml([configMap]));
  await kubectl(["wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"]);
}

/** The node is Ready (kwok) and untainted, and the demo namespace has its default ServiceAccount (pods need it). */
async function waitForWorkloadsReady(kubectl: Kubectl, failure: Promise<never>): Promise<void> {
  await Promise.race([kubectl(["wait", "--for=condition=Ready", `node/${FAKE_NODE.metadata.name}`, "--timeout=60s"]), failure]);
  await waitUntil(
    `the ServiceAccount controller did not create ${DEMO_NAMESPACE}/default`,
    async () => (await kubectl(["get", "serviceaccount", "default", "-n", DEMO_NAMESPACE, "-o", "name"])).trim() !== "",
    60_000,
    failure,
  );
}

/**
 * Starts a real Kubernetes control plane with Argo Rollouts as local processes: etcd, kube-apiserver (RBAC,
 * static tokens, service-account signing), kube-controller-manager, kube-scheduler, kwok with one fake node,
 * the Argo Rollouts CRDs and controller (with upstream's sample traffic-router plugin), Prometheus, and the demo
 * workloads; writes a kubeconfig and a Rollscope configuration. Everything started is stopped again if start-up
 * fails; a component that exits later is reported through onFailure.
 */
export async function startRealCluster(options: RealClusterOptions): Promise<RealCluster> {
  const log = options.log ?? (() => {});
  const toolchain = await ensureToolchain(log);
  const prometheusBinary = options.prometheus === false ? null : findPrometheus();
  if (options.prometheus !== false && !prometheusBinary)
    throw new Error("Prometheus is missing: apt-get install -y --no-install-recommends prometheus");
  const ports = await choosePorts(options.basePort);
  const workDir = path.resolve(options.workDir);
  claimWorkDir(workDir);
  const logsDir = path.join(workDir, "logs");
  const users = simulationUsers(options.seed ?? 1);
  const pki = generatePki(path.join(workDir, "pki"));
  const adminKubeconfigPath = path.join(workDir, "admin.kubeconfig");
  const bin = (name: string) => path.join(toolchain.binDir, name);
  const kubectl: Kubectl = (args, input) => runKubectl(bin("kubectl"), adminKubeconfigPath, args, input);
  const meters = await preparePluginMeters(workDir, bin("trafficrouter-plugin-sample"), log);

  let rejectFailure: (err: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (rejectFailure = reject));
  failure.catch(() => {});
  let started = false;
  const group = new ProcessGroup(logsDir, (err) => {
    rejectFailure(err);
    if (started) options.onFailure?.(err);
  });
  const launcher: Launcher = { group, bin, workDir, ports, pki, adminKubeconfigPath, failure };
  let analysis: AnalysisEndpoint | undefined;
  let dataPlane: DataPlane | undefined;
  let stopDriver = () => {};
  const stop = async () => {
    stopDriver();
    await dataPlane?.stop();
    await group.stop();
    await analysis?.stop();
  };
  const traefikToken = newProxyToken();

  try {
    log(`etcd on 127.0.0.1:${ports.etcdClient}…`);
    await startEtcd(launcher);
    log(`kube-apiserver ${KUBERNETES_VERSION} on https://127.0.0.1:${ports.apiServer}…`);
    const apiServerUrl = `https://127.0.0.1:${ports.apiServer}`;
    writeAdminKubeconfig(adminKubeconfigPath, CLUSTER_NAME, apiServerUrl, pki);
    await startApiServer(launcher, users, traefikToken);
    log("namespaces, RBAC (the simulator's users), the fake node and the CRDs…");
    await applyBootstrap(kubectl, users, toolchain, meters.configMap);
    log("kube-controller-manager, kube-scheduler and kwok…");
    startControllers(launcher, path.join(toolchain.manifestsDir, "kwok-stages.yaml"));
    await waitForWorkloadsReady(kubectl, failure);
    log(`Argo Rollouts ${ARGO_ROLLOUTS_VERSION} controller (metrics on :${ports.controllerMetrics})…`);
    const controllerMetricsUrl = await startRolloutsController(launcher);
    if (options.dataPlane ?? options.workloads !== false) {
      log(`Traefik (its kubernetesIngressNGINX provider) on 127.0.0.1:${ports.proxy}, the pods' network on :${ports.podNetwork}…`);
      dataPlane = await startDataPlane(launcher, toolchain.traefikBinary, traefikToken);
    }
    // Before the workloads: the controller creates each counter at its first event, and increase() counts nothing
    // that happened before Prometheus's first sample of a series.
    const targets = [
      { job: "argo-rollouts", url: controllerMetricsUrl },
      ...(dataPlane
        ? [
            { job: "traefik", url: dataPlane.proxyMetricsUrl },
            { job: "pods", url: `${dataPlane.controlUrl}/metrics` },
          ]
        : []),
      ...meters.scrapeTargets,
    ];
    const prometheusUrl = prometheusBinary ? await startPrometheus(launcher, prometheusBinary, targets, CLUSTER_NAME) : undefined;
    if (prometheusUrl) log(`Prometheus on ${prometheusUrl}, scraping ${targets.map((t) => t.job).join(", ")}`);
    analysis = await startAnalysisEndpoint(ports.analysis);
    if (options.workloads !== false) {
      log("demo workloads…");
      await kubectl(["apply", "--server-side", "-f", "-"], toYaml(demoWorkloads(analysis.checkUrl)));
    }

    const kubeconfigPath = path.resolve(options.kubeconfigPath ?? path.join(workDir, "kubeconfig"));
    writeTokenKubeconfig(kubeconfigPath, CLUSTER_NAME, apiServerUrl, pki, users);
    const rollscopeConfigPath = path.resolve(options.rollscopeConfigPath ?? path.join(workDir, "rollscope.yaml"));
    // Measured traffic of the sample router plugin's canaries from Traefik's counters; a 30-s window and a 30-s
    // stuck-router time so that a proxy that stops following shows within a couple of minutes.
    const plugins =
      dataPlane && prometheusUrl
        ? {
            stuckRouter: { forSeconds: 30 },
            measuredTraffic: { window: "30s", templates: { [SAMPLE_ROUTER_PLUGIN]: TRAEFIK_MEASURED_TRAFFIC } },
          }
        : undefined;
    writeClusterRollscopeConfig(rollscopeConfigPath, CLUSTER_NAME, kubeconfigPath, prometheusUrl, plugins);
    if (options.demo) stopDriver = startDemoDriver(kubectl, options.demo, log);
    if (options.demo && dataPlane && options.workloads !== false) {
      const host = `${DEMO_ROLLOUTS.routed}.${DEMO_NAMESPACE}.local`;
      dataPlane.startLoad(host, 50);
      log(`load: 50 requests/s through Traefik to ${host}`);
    }
    started = true;
    return {
      name: CLUSTER_NAME,
      versions: { kubernetes: KUBERNETES_VERSION, argoRollouts: ARGO_ROLLOUTS_VERSION },
      toolchain,
      ports,
      workDir,
      logsDir,
      apiServerUrl,
      kubeconfigPath,
      adminKubeconfigPath,
      rollscopeConfigPath,
      controllerMetricsUrl,
      prometheusUrl,
      dataPlane: dataPlane && {
        proxyUrl: dataPlane.proxyUrl,
        proxyMetricsUrl: dataPlane.proxyMetricsUrl,
        controlUrl: dataPlane.controlUrl,
        podNetworkUrl: dataPlane.podNetworkUrl,
      },
      pluginMeters: { plugins: meters.plugins, faultyRouterControlUrl: meters.faultyRouterControlUrl },
      analysis,
      users,
      kubectl,
      restartController: async () => {
        await group.stopOne("rollouts-controller");
        await startRolloutsController(launcher);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
