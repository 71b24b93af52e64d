import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { goMissingReason } from "@/realcluster/build";
import { startRealCluster } from "@/realcluster/cluster";

/**
 * Global set-up of the `real-cluster` project: one real control plane with the real Argo Rollouts controller for
 * every file of the project (a start costs 10–40 s of both cores): Rollscope's suites, the CLI oracle and the Helm
 * chart, each in its own namespace (the CLI oracle owns the demo workloads). Builds the binaries first when they are not
 * cached. Without Go, the files are skipped and say why.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const skipReason = goMissingReason();
  if (skipReason) {
    console.log(`real-cluster suites skipped: ${skipReason}`);
    project.provide("realCluster", { skipReason });
    return undefined;
  }
  const workDir = mkdtempSync(path.join(tmpdir(), "rollscope-realsuites-"));
  const cluster = await startRealCluster({ workDir, demo: false, log: (line) => console.log(`[real cluster] ${line}`) });
  project.provide("realCluster", {
    skipReason: null,
    cluster: cluster.name,
    kubeconfigPath: cluster.kubeconfigPath,
    prometheusUrl: cluster.prometheusUrl!,
    adminKubeconfigPath: cluster.adminKubeconfigPath,
    binDir: cluster.toolchain.binDir,
    rollscopeConfigPath: cluster.rollscopeConfigPath,
    controllerMetricsUrl: cluster.controllerMetricsUrl,
    pluginMeters: cluster.pluginMeters,
  });
  return async () => {
    await cluster.stop();
    // ROLLSCOPE_REAL_CLUSTER_KEEP=1 keeps the cluster's logs (<workDir>/logs: the API server's, the controller's…).
    if (process.env.ROLLSCOPE_REAL_CLUSTER_KEEP === "1") console.log(`[real cluster] kept ${workDir}`);
    else rmSync(workDir, { recursive: true, force: true });
  };
}
