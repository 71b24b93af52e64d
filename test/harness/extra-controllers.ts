import { mkdirSync } from "node:fs";
import path from "node:path";
import { ProcessGroup, type ProcessExitError } from "@/realcluster/processes";
import type { SharedRealCluster } from "./real-backend";

/**
 * The volume and disruption controllers, which the shared real cluster's kube-controller-manager does not run
 * (realcluster/control-plane.ts starts only what its suites need): a PersistentVolumeClaim binds to a volume before
 * its pod can be scheduled, is deleted only once no pod uses it, and a PodDisruptionBudget's status (what an
 * eviction is checked against) is theirs to write.
 */
export const VOLUME_AND_DISRUPTION_CONTROLLERS = [
  "persistentvolume-binder-controller",
  "persistentvolume-protection-controller",
  "persistentvolumeclaim-protection-controller",
  "disruption-controller",
];

export interface ExtraControllers {
  /** Why the process ended, if it did; a wait that times out should say it. */
  failure(): string | null;
  stop(): Promise<void>;
}

/** A second, real kube-controller-manager against the shared cluster running only the given controllers. */
export function startExtraControllers(cluster: SharedRealCluster, logsDir: string, controllers: readonly string[]): ExtraControllers {
  mkdirSync(logsDir, { recursive: true });
  let failure: string | null = null;
  const group = new ProcessGroup(logsDir, (err: ProcessExitError) => (failure = err.message));
  group.start({
    name: "kube-controller-manager-extra",
    command: path.join(cluster.binDir, "kube-controller-manager"),
    args: [
      `--kubeconfig=${cluster.adminKubeconfigPath}`,
      "--bind-address=127.0.0.1",
      "--secure-port=0",
      "--leader-elect=false",
      "--use-service-account-credentials=false",
      `--controllers=${controllers.join(",")}`,
    ],
  });
  return { failure: () => failure, stop: () => group.stop() };
}
