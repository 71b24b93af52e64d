import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { goMissingReason } from "../../realcluster/build";
import { startRealCluster } from "../../realcluster/cluster";
import { startAppInstance } from "../../test/harness/app-instance";

/**
 * Starts the real cluster (etcd, kube-apiserver, controller manager, scheduler, kwok, the real Argo Rollouts
 * controller with upstream's sample traffic-router plugin, Prometheus) and the production build of Rollscope
 * against it, in auth mode proxy (the browser context is the trusted proxy). Without Go the specs skip and say why
 * (ROLLSCOPE_REAL_SKIP).
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  const skipReason = goMissingReason();
  if (skipReason) {
    process.env.ROLLSCOPE_REAL_SKIP = `real-cluster e2e skipped: ${skipReason}`;
    console.log(process.env.ROLLSCOPE_REAL_SKIP);
    return undefined;
  }
  const workDir = mkdtempSync(path.join(tmpdir(), "rollscope-real-e2e-"));
  const cluster = await startRealCluster({ workDir, demo: false, log: (line) => console.log(`[real cluster] ${line}`) });
  try {
    const app = await startAppInstance({
      kubeconfigPath: cluster.kubeconfigPath,
      clusters: [{ name: cluster.name, prometheus: { url: cluster.prometheusUrl! } }],
      auth: { mode: "proxy", proxy: { trustedProxies: ["127.0.0.1/32"] } },
    });
    process.env.ROLLSCOPE_E2E_URL = app.url;
    process.env.ROLLSCOPE_REAL_CLUSTER = JSON.stringify({
      cluster: cluster.name,
      kubeconfigPath: cluster.kubeconfigPath,
      prometheusUrl: cluster.prometheusUrl,
    });
    return async () => {
      await app.stop();
      await cluster.stop();
      rmSync(workDir, { recursive: true, force: true });
    };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
