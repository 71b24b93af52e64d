import { inject } from "vitest";
import { runKubectl } from "@/realcluster/client-config";
import type { PluginMetersInfo } from "@/realcluster/plugin-meters";
import { realBackendOf, type Backend, type RealClusterInfo } from "./backend";

/**
 * Where the `real-cluster` project's one real cluster runs, beyond what a back-end needs: the admin kubeconfig, the
 * built binaries (kubectl, kubectl-argo-rollouts), Rollscope's configuration for it and the controller's metrics.
 */
export interface SharedRealClusterInfo extends RealClusterInfo {
  adminKubeconfigPath: string;
  binDir: string;
  rollscopeConfigPath: string;
  controllerMetricsUrl: string;
  /** Each plugin's meter (realcluster/plugin-meters.ts) and the faulty router's control endpoint. */
  pluginMeters: PluginMetersInfo;
}

/** What the `real-cluster` project's global set-up hands to its files: where the cluster runs, or why it does not. */
export type ProvidedRealCluster = { skipReason: string } | ({ skipReason: null } & SharedRealClusterInfo);

declare module "vitest" {
  export interface ProvidedContext {
    realCluster: ProvidedRealCluster;
  }
}

/** The project's real cluster as its files use it; starting and stopping it is the global set-up's job. */
export interface SharedRealCluster extends SharedRealClusterInfo {
  /** The built kubectl (the server's version) against the cluster as admin. */
  kubectl(args: string[], input?: string): Promise<string>;
}

/** Why the real back-end is not available in this run (Go missing), or null. */
export function realBackendSkipReason(): string | null {
  return inject("realCluster").skipReason;
}

function providedCluster(): SharedRealClusterInfo {
  const info = inject("realCluster");
  if (info.skipReason !== null) throw new Error(`no real cluster: ${info.skipReason}`);
  return info;
}

/** The real cluster the project's global set-up started, as a back-end of the shared suites. */
export function realBackend(): Backend {
  return realBackendOf(providedCluster());
}

/** The real cluster the project's global set-up started, with an admin kubectl. */
export function sharedRealCluster(): SharedRealCluster {
  const info = providedCluster();
  return { ...info, kubectl: (args, input) => runKubectl(`${info.binDir}/kubectl`, info.adminKubeconfigPath, args, input) };
}
