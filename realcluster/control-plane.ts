import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SimulationUsers } from "../sim/cluster";
import { CONTROLLER_NAMESPACE, tokenFile } from "./manifests";
import { httpGet, waitUntil, type ClientTls } from "./net";
import type { Pki } from "./pki";
import { ProcessExitError, tail, type ProcessGroup } from "./processes";
import { prometheusConfig, type ScrapeTarget } from "./prometheus";

/** One component each: start it in the process group and wait until it answers. */

export interface Ports {
  etcdClient: number;
  etcdPeer: number;
  apiServer: number;
  controllerMetrics: number;
  controllerHealthz: number;
  analysis: number;
  prometheus: number;
  /** Traefik's entry point (the demo's traffic goes here) and its metrics/ping entry point. */
  proxy: number;
  proxyMetrics: number;
  /** The API gate in front of the API server for Traefik. */
  apiGate: number;
  /** The pods' network (realcluster/pod-network.ts). */
  podNetwork: number;
  /** The data plane's control and metrics endpoint. */
  dataPlane: number;
}

export interface Launcher {
  group: ProcessGroup;
  bin(name: string): string;
  workDir: string;
  ports: Ports;
  pki: Pki;
  adminKubeconfigPath: string;
  /** Rejects when any started process exits. */
  failure: Promise<never>;
}

/** Waits for a component's readiness; a time-out names it and shows the end of its log. */
export async function waitReady(
  launcher: Launcher,
  name: string,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  try {
    await waitUntil(`${name} ${what}`, check, timeoutMs, launcher.failure);
  } catch (err) {
    const managed = launcher.group.get(name);
    if (!(err instanceof Error) || !managed || err instanceof ProcessExitError) throw err;
    throw new Error(`${err.message}; last lines of ${managed.logFile}:\n${tail(managed.logFile)}`);
  }
}

export async function startEtcd(l: Launcher): Promise<void> {
  const client = `http://127.0.0.1:${l.ports.etcdClient}`;
  const peer = `http://127.0.0.1:${l.ports.etcdPeer}`;
  l.group.start({
    name: "etcd",
    command: l.bin("etcd"),
    args: [
      "--name=node0",
      `--data-dir=${path.join(l.workDir, "etcd")}`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=node0=${peer}`,
      "--auto-compaction-retention=1",
      "--quota-backend-bytes=1073741824",
    ],
  });
  await waitReady(l, "etcd", "did not answer /health", async () => (await httpGet(`${client}/health`)).body.includes('"true"'), 30_000);
}

export async function startApiServer(l: Launcher, users: SimulationUsers, traefikToken?: string): Promise<string> {
  const tokensPath = path.join(l.pki.dir, "tokens.csv");
  writeFileSync(tokensPath, tokenFile(users, traefikToken), { mode: 0o600 });
  l.group.start({
    name: "kube-apiserver",
    command: l.bin("kube-apiserver"),
    args: [
      `--etcd-servers=http://127.0.0.1:${l.ports.etcdClient}`,
      "--bind-address=127.0.0.1",
      // Required on a machine without a default route.
      "--advertise-address=127.0.0.1",
      `--secure-port=${l.ports.apiServer}`,
      `--tls-cert-file=${l.pki.serverCert}`,
      `--tls-private-key-file=${l.pki.serverKey}`,
      `--client-ca-file=${l.pki.caCert}`,
      `--token-auth-file=${tokensPath}`,
      "--authorization-mode=Node,RBAC",
      `--service-account-key-file=${l.pki.saPub}`,
      `--service-account-signing-key-file=${l.pki.saKey}`,
      "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
      "--service-cluster-ip-range=10.0.0.0/24",
      // The `kubernetes` Service's endpoint would be 127.0.0.1, which endpoint validation refuses.
      "--endpoint-reconciler-type=none",
      "--allow-privileged=true",
      "--profiling=false",
    ],
  });
  const url = `https://127.0.0.1:${l.ports.apiServer}`;
  const tls: ClientTls = { ca: l.pki.caCert, cert: l.pki.adminCert, key: l.pki.adminKey };
  await waitReady(
    l,
    "kube-apiserver",
    "did not become ready (/readyz)",
    async () => (await httpGet(`${url}/readyz`, tls)).status === 200,
    90_000,
  );
  return url;
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

/** kube-controller-manager, kube-scheduler (kwok only acts on pods bound to its nodes) and kwok. */
export function startControllers(l: Launcher, kwokStages: string): void {
  const kubeconfig = `--kubeconfig=${l.adminKubeconfigPath}`;
  l.group.start({
    name: "kube-controller-manager",
    command: l.bin("kube-controller-manager"),
    args: [
      kubeconfig,
      "--bind-address=127.0.0.1",
      "--secure-port=0",
      "--leader-elect=false",
      `--service-account-private-key-file=${l.pki.saKey}`,
      `--root-ca-file=${l.pki.caCert}`,
      "--use-service-account-credentials=false",
      `--controllers=${KCM_CONTROLLERS.join(",")}`,
    ],
  });
  l.group.start({
    name: "kube-scheduler",
    command: l.bin("kube-scheduler"),
    args: [kubeconfig, "--bind-address=127.0.0.1", "--secure-port=0", "--leader-elect=false"],
  });
  l.group.start({
    name: "kwok",
    command: l.bin("kwok"),
    args: [
      kubeconfig,
      `--config=${kwokStages}`,
      "--manage-all-nodes=true",
      "--node-ip=10.0.0.1",
      "--cidr=10.0.1.0/24",
      "--node-lease-duration-seconds=40",
    ],
  });
}

/** The Argo Rollouts controller; resolves with its metrics URL once /healthz answers. */
export async function startRolloutsController(l: Launcher): Promise<string> {
  const controllerDir = path.join(l.workDir, "controller");
  mkdirSync(controllerDir, { recursive: true });
  l.group.start({
    name: "rollouts-controller",
    command: l.bin("rollouts-controller"),
    args: [
      `--kubeconfig=${l.adminKubeconfigPath}`,
      "--leader-elect=false",
      `--metricsPort=${l.ports.controllerMetrics}`,
      `--healthzPort=${l.ports.controllerHealthz}`,
      "--loglevel=info",
    ],
    // A writable folder: the controller copies each plugin to ./plugin-bin. The plugin runs as the controller's child
    // and finds the cluster through KUBECONFIG only.
    cwd: controllerDir,
    env: { ...process.env, KUBECONFIG: l.adminKubeconfigPath, POD_NAMESPACE: CONTROLLER_NAMESPACE },
  });
  await waitReady(
    l,
    "rollouts-controller",
    "did not answer /healthz",
    async () => (await httpGet(`http://127.0.0.1:${l.ports.controllerHealthz}/healthz`)).status === 200,
    60_000,
  );
  return `http://127.0.0.1:${l.ports.controllerMetrics}/metrics`;
}

/** Debian's Prometheus scraping the controller (and the data plane); resolves with its URL once ready. */
export async function startPrometheus(l: Launcher, binary: string, targets: readonly ScrapeTarget[], cluster: string): Promise<string> {
  const dir = path.join(l.workDir, "prometheus");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "prometheus.yml"), prometheusConfig(targets, cluster));
  const url = `http://127.0.0.1:${l.ports.prometheus}`;
  l.group.start({
    name: "prometheus",
    command: binary,
    args: [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${l.ports.prometheus}`,
      "--storage.tsdb.retention.time=1d",
    ],
  });
  await waitReady(l, "prometheus", "did not become ready", async () => (await httpGet(`${url}/-/ready`)).status === 200, 30_000);
  return url;
}
