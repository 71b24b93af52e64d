import type { ObjectStore } from "../store/object-store";
import type { ControllerMetrics } from "../metrics/controller-metrics";
import type { EventLogEntry } from "./event-recorder";
import type { PluginConfig } from "./plugin-config";
import type { PluginProfile, PluginProfileInput } from "./plugin-profiles";
import type { TransitionLog } from "./transition-log";

export interface ControllerOptions {
  store: ObjectStore;
  clusterName: string;
  seed: number;
  /** Simulated seconds per real second (durations in specs shrink by this factor). */
  timeScale: number;
  /** Epoch milliseconds; inject a fake clock in tests. */
  now?: () => number;
  /** Port of the controller's /metrics server; 0 (default) picks a free one. */
  metricsPort?: number;
  metricsHost?: string;
  /** Controller namespace (POD_NAMESPACE); default argo-rollouts. */
  namespace?: string;
  pluginProfiles?: Record<string, PluginProfileInput>;
  /** Plugins registered through rollscope-plugin-meter (their calls are counted on its endpoint); default every plugin. */
  meteredPlugins?: string[];
  /** Simulated seconds a new Pod takes to become Ready; default 5. */
  podReadySeconds?: number;
  /** Run the timer loop (default true); false leaves reconciling to tick(). */
  autoReconcile?: boolean;
  /** Real milliseconds between loop passes; default derived from timeScale (20–200). */
  loopIntervalMs?: number;
  /** Real milliseconds of work per timer pass before the rest waits for the next pass (keeps the event loop free). */
  loopBudgetMs?: number;
  /** Entries kept by the transition log and the event log (oldest dropped first); default 50 000 and 20 000. */
  transitionLogLimit?: number;
  eventLogLimit?: number;
}

export type ControllerStatus = "Running" | "CrashLoopBackOff";

export interface ControllerState {
  status: ControllerStatus;
  /** The fatal log line while crash-looping. */
  reason?: string;
  restartCount: number;
  podName: string;
  /** When the current Pod started (a restart() makes a new Pod). */
  podStartTime: string;
  /** resourceVersion of argo-rollouts-config as last read (absent when it did not exist). */
  configResourceVersion?: string;
}

export interface ControllerHandle {
  readonly transitions: TransitionLog;
  /** Every event the controller recorded, before the EventCorrelator deduped or dropped it (bounded). */
  readonly eventLog: readonly EventLogEntry[];
  readonly state: ControllerState;
  readonly metrics: ControllerMetrics;
  readonly metricsUrl: string;
  readonly metricsPort: number;
  readonly pluginMeterUrl: string;
  /** The plugins the running controller loaded (empty while crash-looping). */
  readonly pluginConfig: PluginConfig;
  /** A `kubectl rollout restart` of the controller: new Pod, argo-rollouts-config read again, plugins restarted. */
  restart(): void;
  stop(): Promise<void>;
  /** One synchronous pass over every ReplicaSet, AnalysisRun and Rollout (for tests). */
  tick(): void;
  setPluginProfile(name: string, profile: PluginProfileInput): void;
  pluginProfile(name: string): PluginProfile;
}
