import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { BuildError, GoMissingError } from "./build";
import { startRealCluster, type RealCluster } from "./cluster";
import { DEMO_ROLLOUTS } from "./demo-workloads";
import { DEMO_NAMESPACE } from "./manifests";
import { assertPortFree, httpGet, waitUntil } from "./net";
import { ProcessGroup } from "./processes";

const USAGE = `usage: npx tsx realcluster/cli.ts [--port 3000] [--base-port N] [--work-dir .rollscope/realcluster] [--no-app] [--build-only]
Starts the real cluster (building its binaries the first time), the demo workloads and Rollscope against it.`;

const repoRoot = path.resolve(import.meta.dirname, "..");

async function startApp(cluster: RealCluster, port: number, onExit: (message: string) => void): Promise<ProcessGroup> {
  const group = new ProcessGroup(cluster.logsDir, (err) => onExit(err.message));
  group.start({
    name: "rollscope",
    command: "bash",
    args: [path.join(repoRoot, "scripts/start-server.sh"), "-p", String(port)],
    cwd: repoRoot,
    env: {
      ...process.env,
      ROLLSCOPE_CONFIG: cluster.rollscopeConfigPath,
      KUBECONFIG: cluster.kubeconfigPath,
      DATABASE_URL: process.env.DATABASE_URL ?? "file:./data/rollscope-realcluster.db",
      NEXT_TELEMETRY_DISABLED: "1",
    },
  });
  await waitUntil(
    `Rollscope did not answer on port ${port}`,
    async () => (await httpGet(`http://127.0.0.1:${port}/api/clusters`)).status === 200,
    60_000,
  );
  return group;
}

function summary(cluster: RealCluster, appPort: number | undefined, seconds: number): string {
  const k = `KUBECONFIG=${cluster.kubeconfigPath}`;
  return [
    "",
    `Real cluster up in ${seconds} s (Kubernetes ${cluster.versions.kubernetes}, Argo Rollouts ${cluster.versions.argoRollouts}; ` +
      `binaries ${cluster.toolchain.built ? `built in ${cluster.toolchain.seconds} s` : "from the cache"}: ${cluster.toolchain.binDir}).`,
    ...(appPort ? [`Rollscope: http://localhost:${appPort}`] : []),
    `API server:  ${cluster.apiServerUrl}   kubeconfig: ${cluster.kubeconfigPath} (contexts real, real-admin, real-alice, real-bob)`,
    `Controller metrics: ${cluster.controllerMetricsUrl}${cluster.prometheusUrl ? `   Prometheus: ${cluster.prometheusUrl}` : ""}`,
    ...(cluster.dataPlane
      ? [
          `Traefik: ${cluster.dataPlane.proxyUrl} (metrics ${cluster.dataPlane.proxyMetricsUrl})   pods' requests and the proxy switch: ${cluster.dataPlane.controlUrl}`,
        ]
      : []),
    `Logs: ${cluster.logsDir}`,
    "",
    `  ${k} kubectl --context real-admin get rollouts -n ${DEMO_NAMESPACE}`,
    `  ${k} ${path.join(cluster.toolchain.binDir, "kubectl-argo-rollouts")} --context real-admin get rollout ${DEMO_ROLLOUTS.routed} -n ${DEMO_NAMESPACE}`,
    `  curl -X POST ${cluster.analysis.url}/fail      # the analysis canary's next analysis fails (…/succeed to undo)`,
    ...(cluster.dataPlane
      ? [
          `  curl -H 'Host: ${DEMO_ROLLOUTS.routed}.${DEMO_NAMESPACE}.local' ${cluster.dataPlane.proxyUrl}/   # a request through Traefik: pod and hash`,
          `  curl -X POST ${cluster.dataPlane.controlUrl}/router/freeze   # Traefik stops following the API server (…/follow to undo)`,
        ]
      : []),
    "",
    "Stop with Ctrl-C.",
  ].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: process.env.PORT ?? "3000" },
      "base-port": { type: "string" },
      "work-dir": { type: "string", default: path.join(repoRoot, ".rollscope/realcluster") },
      "no-app": { type: "boolean", default: false },
      "build-only": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void console.log(USAGE);
  if (values["build-only"]) {
    const { ensureToolchain } = await import("./build");
    const toolchain = await ensureToolchain(console.log);
    return void console.log(`binaries: ${toolchain.binDir} (${toolchain.built ? `built in ${toolchain.seconds} s` : "cached"})`);
  }
  const started = Date.now();
  const running: { cluster?: RealCluster; app?: ProcessGroup } = {};
  let stopping = false;
  // Before the cluster is up there is nothing to stop in order: exiting runs the process groups' exit hook, which
  // kills whatever had started.
  const shutdown = async (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    console.log(`${reason}: stopping every process…`);
    await running.app?.stop();
    await running.cluster?.stop();
    console.log("stopped.");
    process.exit(code);
  };
  // A second signal while stopping (Ctrl-C pressed again) exits at once: the exit hook KILLs every process group.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (!stopping) return void shutdown(signal, 0);
      console.log(`${signal} again: killing every process now.`);
      process.exit(1);
    });
  }
  const appPort = values["no-app"] ? undefined : Number(values.port);
  if (appPort) await assertPortFree(appPort, "Rollscope", "choose another with --port");
  mkdirSync(values["work-dir"], { recursive: true });
  const cluster = await startRealCluster({
    workDir: values["work-dir"],
    basePort: values["base-port"] ? Number(values["base-port"]) : undefined,
    demo: "loop",
    log: (line) => console.log(line),
    onFailure: (err) => {
      console.error(`\n${err.message}`);
      void shutdown("a component exited", 1);
    },
  });
  running.cluster = cluster;
  if (appPort) {
    console.log(`Rollscope on port ${appPort}…`);
    try {
      running.app = await startApp(cluster, appPort, (message) => {
        console.error(`\n${message}`);
        void shutdown("Rollscope exited", 1);
      });
    } catch (err) {
      console.error(`\n${err instanceof Error ? err.message : String(err)} (log: ${path.join(cluster.logsDir, "rollscope.log")})`);
      return shutdown("Rollscope did not start", 1);
    }
  }
  console.log(summary(cluster, appPort, Math.round((Date.now() - started) / 1000)));
}

main().catch((err: unknown) => {
  if (err instanceof GoMissingError || err instanceof BuildError) console.error(`\n${err.message}`);
  else console.error(`\nThe real cluster did not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
