import { inject } from "vitest";
import { realBackendOf, type Backend, type RealClusterInfo } from "./backend";

/** What the `real-cluster` project's global set-up hands to its files: where the cluster runs, or why it does not. */
export type ProvidedRealCluster = { skipReason: string } | ({ skipReason: null } & RealClusterInfo);

declare module "vitest" {
  export interface ProvidedContext {
    realCluster: ProvidedRealCluster;
  }
}

/** Why the real back-end is not available in this run (Go missing), or null. */
export function realBackendSkipReason(): string | null {
  return inject("realCluster").skipReason;
}

/** The real cluster the project's global set-up started; stopping it is the set-up's job. */
export function realBackend(): Backend {
  const info = inject("realCluster");
  if (info.skipReason !== null) throw new Error(`no real cluster: ${info.skipReason}`);
  return realBackendOf(info);
}
