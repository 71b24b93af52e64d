import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stringify } from "yaml";
import { simulationUsers, type SimulationUsers } from "../sim/cluster";
import { buildRollscopeConfig } from "../sim/rollscope-config";
import { startAnalysisEndpoint, type AnalysisEndpoint } from "./analysis-endpoint";
import { ensureToolchain, type Toolchain } from "./build";
import { ARGO_ROLLOUTS_VERSION, KUBERNETES_VERSION } from "./components";
import { startDemoDriver, type DemoDriverMode } from "./demo-driver";
import { demoWorkloads } from "./demo-workloads";
import { bootstrapObjects, CONTROLLER_NAMESPACE, DEMO_NAMESPACE, FAKE_NODE, rolloutsConfigMap, tokenFile, toYaml } from "./manifests";
import { assertPortFree, freePort, httpGet, waitUntil, type ClientTls } from "./net";
import { generatePki, type Pki } from "./pki";
import { ProcessExitError, ProcessGroup, tail } from "./processes";
import { findPrometheus, prometheusConfig } from "./prometheus";

export const CLUSTER_NAME = "real";

export interface RealClusterOptions {
  /** Working folder (certificates, etcd data, the controller's plugin copies, logs/); emptied at start. */
  workDir: string;
  /** Ports basePort…basePort+6; default: free ports. */
  basePort?: number;
  /** Where to write the kubeconfig for Rollscope; default <workDir>/kubeconfig. */
  kubeconfigPath?: string;
  /** Where to write the Rollscope configuration; default <workDir>/rollscope.yaml. */
  rollscopeConfigPath?: string;
  /** "once": start one new revision of every demo Rollout; "loop": keep starting them; false: leave them at v1. */
  demo?: DemoDriverMode | false;
  /** Start Debian's Prometheus scraping the controller (default true). */
  prometheus?: boolean;
  /** Seed of the static tokens (the simulator's users for the same seed); default 1. */
  seed?: number;
  log?: (line: string) => void;
  /** A component exited after start-up; the cluster is being stopped. */
  onFailure?: (error: ProcessExitError) => void;
}

export interface Ports {
  etcdClient: number;
  etcdPeer: number;
  apiServer: number;
  controllerMetrics: number;
  controllerHealthz: number;
  analysis: number;
  prometheus: number;
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
  analysis: AnalysisEndpoint;
  users: SimulationUsers;
  /** The built kubectl (the server's version) against the cluster as admin. */
  kubectl(args: string[], input?: string): Promise<string>;
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
];

async function choosePorts(basePort?: number): Promise<Ports> {
  const ports = {} as Ports;
  for (const [i, [key, what]] of PORT_NAMES.entries()) {
    ports[key] = basePort ? basePort + i : await freePort();
    await assertPortFree(ports[key], what);
  }
  return ports;
}

function kubeconfigWithCert(server: string, pki: Pki): string {
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: CLUSTER_NAME, cluster: { server, "certificate-authority": pki.caCert } }],
    users: [{ name: "admin", user: { "client-certificate": pki.adminCert, "client-key": pki.adminKey } }],
    contexts: [{ name: CLUSTER_NAME, context: { cluster: CLUSTER_NAME, user: "admin" } }],
    "current-context": CLUSTER_NAME,
  });
}

/** Rollscope's kubeconfig: the static tokens (as the simulator's), with the cluster's CA inline. */
function tokenKubeconfig(server: string, pki: Pki, users: SimulationUsers): string {
  const who = [
    [CLUSTER_NAME, users.rollscope.token],
    [`${CLUSTER_NAME}-admin`, users.admin.token],
    [`${CLUSTER_NAME}-alice`, users.alice.token],
    [`${CLUSTER_NAME}-bob`, users.bob.token],
  ];
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: CLUSTER_NAME, cluster: { server, "certificate-authority-data": readFileSync(pki.caCert).toString("base64") } }],
    users: who.map(([name, token]) => ({ name, user: { token } })),
    contexts: who.map(([name]) => ({ name, context: { cluster: CLUSTER_NAME, user: name } })),
    "current-context": CLUSTER_NAME,
  });
}

function runKubectl(binary: string, kubeconfig: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["--kubeconfig", kubeconfig, ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`kubectl ${args.join(" ")} failed: ${stderr.trim() || `exit ${code}`}`))));
    child.stdin.end(input ?? "");
  });
}

/**
 * Starts a real Kubernetes control plane with Argo Rollouts as local processes: etcd, kube-apiserver (RBAC,
 * static tokens, service-account signing), kube-controller-manager, kube-scheduler, kwok with one fake node,
 * the Argo Rollouts CRDs and controller (with upstream's sample traffic-router plugin), Prometheus, and the demo
 * workloads; writes a kubeconfig and a Rollscope configuration. Any component that exits stops the whole set.
 */
export async function startRealCluster(options: RealClusterOptions): Promise<RealCluster> {
  const log = options.log ?? (() => {});
  const toolchain = await ensureToolchain(log);
  const bin = (name: string) => path.join(toolchain.binDir, name);
  const wantPrometheus = options.prometheus ?? true;
  const prometheusBinary = wantPrometheus ? findPrometheus() : null;
  if (wantPrometheus && !prometheusBinary) throw new Error("Prometheus is missing: apt-get install -y --no-install-recommends prometheus (or pass prometheus: false)");

  const ports = await choosePorts(options.basePort);
  const workDir = path.resolve(options.workDir);
  rmSync(workDir, { recursive: true, force: true });
  const logsDir = path.join(workDir, "logs");
  mkdirSync(logsDir, { recursive: true });
  const pki = generatePki(path.join(workDir, "pki"));
  const users = simulationUsers(options.seed ?? 1);
  const apiServerUrl = `https://127.0.0.1:${ports.apiServer}`;
  const adminKubeconfigPath = path.join(workDir, "admin.kubeconfig");
  writeFileSync(adminKubeconfigPath, kubeconfigWithCert(apiServerUrl, pki), { mode: 0o600 });
  const kubectl = (args: string[], input?: string) => runKubectl(bin("kubectl"), adminKubeconfigPath, args, input);
  const tls: ClientTls = { ca: pki.caCert, cert: pki.adminCert, key: pki.adminKey };

  let rejectFailure: (err: Error) => void = () => {};
  const failure = new Promise<never>((_, reject) => (rejectFailure = reject));
  failure.catch(() => {});
  let started = false;
  const group = new ProcessGroup(logsDir, (err) => {
    rejectFailure(err);
    if (started) options.onFailure?.(err);
  });
  let analysis: AnalysisEndpoint | undefined;
  let stopDriver = () => {};
  /** Waits for a component's readiness; a timeout names it and shows the end of its log. */
  const waitReady = async (name: string, what: string, check: () => Promise<boolean>, timeoutMs: number) => {
    try {
      await waitUntil(`${name} ${what}`, check, timeoutMs, failure);
    } catch (err) {
      const managed = group.get(name);
      if (!(err instanceof Error) || !managed || err instanceof ProcessExitError) throw err;
      throw new Error(`${err.message}; last lines of ${managed.logFile}:\n${tail(managed.logFile)}`);
    }
  };
  const stop = async () => {
    stopDriver();
    await group.stop();
    await analysis?.stop();
  };

  try {
    log(`etcd on 127.0.0.1:${ports.etcdClient}…`);
    group.start({
      name: "etcd",
      command: bin("etcd"),
      args: [
        "--name=node0",
        `--data-dir=${path.join(workDir, "etcd")}`,
        `--listen-client-urls=http://127.0.0.1:${ports.etcdClient}`,
        `--advertise-client-urls=http://127.0.0.1:${ports.etcdClient}`,
        `--listen-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
        `--initial-advertise-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
        `--initial-cluster=node0=http://127.0.0.1:${ports.etcdPeer}`,
        "--auto-compaction-retention=1",
        "--quota-backend-bytes=1073741824",
      ],
    });
    await waitReady("etcd", "did not answer /health", async () => (await httpGet(`http://127.0.0.1:${ports.etcdClient}/health`)).body.includes('"true"'), 30_000);

    log(`kube-apiserver on ${apiServerUrl}…`);
    const tokensPath = path.join(pki.dir, "tokens.csv");
    writeFileSync(tokensPath, tokenFile(users), { mode: 0o600 });
    group.start({
      name: "kube-apiserver",
      command: bin("kube-apiserver"),
      args: [
        `--etcd-servers=http://127.0.0.1:${ports.etcdClient}`,
        "--bind-address=127.0.0.1",
        "--advertise-address=127.0.0.1",
        `--secure-port=${ports.apiServer}`,
        `--tls-cert-file=${pki.serverCert}`,
        `--tls-private-key-file=${pki.serverKey}`,
        `--client-ca-file=${pki.caCert}`,
        `--token-auth-file=${tokensPath}`,
        "--authorization-mode=Node,RBAC",
        `--service-account-key-file=${pki.saPub}`,
        `--service-account-signing-key-file=${pki.saKey}`,
        "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
        "--service-cluster-ip-range=10.0.0.0/24",
        // The `kubernetes` Service's endpoint would be 127.0.0.1, which endpoint validation refuses.
        "--endpoint-reconciler-type=none",
        "--allow-privileged=true",
        "--profiling=false",
      ],
    });
    await waitReady("kube-apiserver", "did not become ready (/readyz)", async () => (await httpGet(`${apiServerUrl}/readyz`, tls)).status === 200, 90_000);

    log("namespaces, RBAC (the simulator's users), the fake node and the CRDs…");
    await kubectl(["apply", "--server-side", "-f", "-"], toYaml(bootstrapObjects(users)));
    await kubectl(["apply", "--server-side", "-f", path.join(toolchain.manifestsDir, "argo-rollouts-crds.yaml"), "-f", path.join(toolchain.manifestsDir, "gateway-api-crds.yaml")]);
    await kubectl(["apply", "--server-side", "-f", "-"], toYaml([rolloutsConfigMap(bin("trafficrouter-plugin-sample"))]));
    await kubectl(["wait", "--for=condition=Established", "crd", "--all", "--timeout=60s"]);

    log("kube-controller-manager, kube-scheduler and kwok…");
    startControllers(group, bin, adminKubeconfigPath, pki, path.join(toolchain.manifestsDir, "kwok-stages.yaml"));
    await Promise.race([kubectl(["wait", "--for=condition=Ready", `node/${FAKE_NODE.metadata.name}`, "--timeout=60s"]), failure]);
    await waitUntil(
      `the ServiceAccount controller did not create ${DEMO_NAMESPACE}/default`,
      async () => (await kubectl(["get", "serviceaccount", "default", "-n", DEMO_NAMESPACE, "-o", "name"])).trim() !== "",
      60_000,
      failure,
    );

    log(`Argo Rollouts ${ARGO_ROLLOUTS_VERSION} controller (metrics on :${ports.controllerMetrics})…`);
    const controllerDir = path.join(workDir, "controller");
    mkdirSync(controllerDir);
    group.start({
      name: "rollouts-controller",
      command: bin("rollouts-controller"),
      args: [`--kubeconfig=${adminKubeconfigPath}`, "--leader-elect=false", `--metricsPort=${ports.controllerMetrics}`, `--healthzPort=${ports.controllerHealthz}`, "--loglevel=info"],
      // The plugin runs as the controller's child and finds the cluster through KUBECONFIG only.
      cwd: controllerDir,
      env: { ...process.env, KUBECONFIG: adminKubeconfigPath, POD_NAMESPACE: CONTROLLER_NAMESPACE },
    });
    const controllerMetricsUrl = `http://127.0.0.1:${ports.controllerMetrics}/metrics`;
    await waitReady("rollouts-controller", "did not answer /healthz", async () => (await httpGet(`http://127.0.0.1:${ports.controllerHealthz}/healthz`)).status === 200, 60_000);

    // Before the workloads: the controller creates each counter at its first event, and increase() counts nothing
    // that happened before Prometheus's first sample of a series.
    let prometheusUrl: string | undefined;
    if (prometheusBinary) {
      prometheusUrl = `http://127.0.0.1:${ports.prometheus}`;
      log(`Prometheus on ${prometheusUrl}, scraping ${controllerMetricsUrl}…`);
      const promDir = path.join(workDir, "prometheus");
      mkdirSync(promDir);
      writeFileSync(path.join(promDir, "prometheus.yml"), prometheusConfig(controllerMetricsUrl, CLUSTER_NAME));
      group.start({
        name: "prometheus",
        command: prometheusBinary,
        args: [`--config.file=${path.join(promDir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(promDir, "data")}`, `--web.listen-address=127.0.0.1:${ports.prometheus}`, "--storage.tsdb.retention.time=1d"],
      });
      await waitReady("prometheus", "did not become ready", async () => (await httpGet(`${prometheusUrl}/-/ready`)).status === 200, 30_000);
    }

    analysis = await startAnalysisEndpoint(ports.analysis);
    log("demo workloads…");
    await kubectl(["apply", "--server-side", "-f", "-"], toYaml(demoWorkloads(analysis.checkUrl)));

    const kubeconfigPath = path.resolve(options.kubeconfigPath ?? path.join(workDir, "kubeconfig"));
    mkdirSync(path.dirname(kubeconfigPath), { recursive: true });
    writeFileSync(kubeconfigPath, tokenKubeconfig(apiServerUrl, pki, users), { mode: 0o600 });
    const rollscopeConfigPath = path.resolve(options.rollscopeConfigPath ?? path.join(workDir, "rollscope.yaml"));
    const prometheus = prometheusUrl ? { prometheus: { url: prometheusUrl } } : {};
    writeFileSync(rollscopeConfigPath, buildRollscopeConfig(kubeconfigPath, [{ name: CLUSTER_NAME, labels: {} }], {}, () => prometheus), { mode: 0o600 });

    if (options.demo) stopDriver = startDemoDriver(kubectl, options.demo, log);
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
      analysis,
      users,
      kubectl,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

function startControllers(group: ProcessGroup, bin: (name: string) => string, kubeconfig: string, pki: Pki, kwokStages: string): void {
  group.start({
    name: "kube-controller-manager",
    command: bin("kube-controller-manager"),
    args: [
      `--kubeconfig=${kubeconfig}`,
      "--bind-address=127.0.0.1",
      "--secure-port=0",
      "--leader-elect=false",
      `--service-account-private-key-file=${pki.saKey}`,
      `--root-ca-file=${pki.caCert}`,
      "--use-service-account-credentials=false",
      `--controllers=${KCM_CONTROLLERS.join(",")}`,
    ],
  });
  // kwok only acts on pods bound to its nodes: the scheduler binds them.
  group.start({ name: "kube-scheduler", command: bin("kube-scheduler"), args: [`--kubeconfig=${kubeconfig}`, "--bind-address=127.0.0.1", "--secure-port=0", "--leader-elect=false"] });
  group.start({
    name: "kwok",
    command: bin("kwok"),
    args: [`--kubeconfig=${kubeconfig}`, `--config=${kwokStages}`, "--manage-all-nodes=true", "--node-ip=10.0.0.1", "--cidr=10.0.1.0/24", "--node-lease-duration-seconds=40"],
  });
}

const KCM_CONTROLLERS = [
  "replicaset-controller",
  "deployment-controller",
  "serviceaccount-controller",
  "serviceaccount-token-controller",
  "namespace-controller",
  "garbage-collector-controller",
  "endpoints-controller",
  "endpointslice-controller",
  "job-controller",
  "pod-garbage-collector-controller",
  "root-ca-certificate-publisher-controller",
  "clusterrole-aggregation-controller",
  // Removes the not-ready taint the apiserver's admission puts on every new node once kwok reports it Ready.
  "node-lifecycle-controller",
];
