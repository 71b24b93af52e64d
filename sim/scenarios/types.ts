import type { PluginProfileInput } from "../controller/plugin-profiles";
import type { KubeObject } from "../store/object-store";
import type { ScenarioDriver } from "./revision-driver";

export interface ScenarioCluster {
  name: string;
  /** Labels a dashboard can group clusters by (e.g. env=production). */
  labels: Record<string, string>;
  /** Seeded in order before the controller starts; namespaces are created as needed. */
  objects: KubeObject[];
  pluginProfiles?: Record<string, PluginProfileInput>;
}

export interface Scenario {
  name: string;
  clusters: ScenarioCluster[];
  /** What starts new revisions while the simulation runs. */
  driver?: ScenarioDriver;
}

export interface ScaleOptions {
  clusters: number;
  rolloutsPerCluster: number;
  /** Fleet-wide canary weight changes per (real) second. */
  changesPerSecond: number;
  seed: number;
  /** Rollouts as `kubectl apply` leaves them on a real cluster: with managedFields and the last-applied annotation. */
  bookkeeping?: boolean;
}
