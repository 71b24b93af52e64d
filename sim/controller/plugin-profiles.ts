/**
 * How a simulated traffic-router plugin behaves. Upstream plugins are separate processes spoken to over net/rpc
 * (`rollout/trafficrouting/plugin/rpc`); the simulator replaces the process with this profile.
 */
export type VerifyMode =
  /** Always `Verified` (gatewayAPI, glooplatform). */
  | "verified"
  /** Always `NotVerified`: weights.verified false, the step never completes, requeue every 10 s. */
  | "notVerified"
  /** `NotImplemented`: weights.verified absent (openshift, consul). */
  | "notImplemented"
  /** An RPC error: Warning WeightVerifyError "Failed to verify weight: ...". */
  | "error"
  /** A real check (contour): verified unless the router is stuck. */
  | "measured";

export interface PluginProfile {
  /** Probability that a SetWeight RPC returns an error (TrafficRoutingError event, no weight change). */
  setWeightFailureRate?: number;
  /** The error the plugin returns from SetWeight. */
  setWeightError?: string;
  verifyWeight?: VerifyMode;
  verifyError?: string;
  /** Simulated duration of each RPC; added to the rollout_reconcile observation (no real sleep). */
  latencyMs?: number;
  /** The plugin binary cannot start (exec or handshake failure): every reconcile fails, no event. */
  startFailure?: string;
  /** Ping fails after start: the process is killed and restarted on the next reconcile, no event. */
  pingFailure?: string;
  /** SetWeight succeeds and the weight is written, but the measured traffic share stays at 50 % or the old weight. */
  stuckRouter?: "half" | "old";
  updateHashFailure?: string;
  headerRouteFailure?: string;
  mirrorRouteFailure?: string;
  removeManagedRoutesFailure?: string;
}

export type PluginProfileInput = "healthy" | PluginProfile;

/** VerifyWeight and Type() of the known plugins (reference §6). */
const KNOWN_PLUGINS: Record<string, { type: string; verify: VerifyMode }> = {
  "argoproj-labs/gatewayAPI": { type: "GatewayAPI", verify: "verified" },
  "argoproj-labs/contour": { type: "Contour", verify: "measured" },
  "argoproj-labs/openshift": { type: "Openshift", verify: "notImplemented" },
  "solo-io/glooplatform": { type: "GlooPlatformAPI", verify: "verified" },
  "hashicorp/consul": { type: "Consul", verify: "notImplemented" },
  // Upstream's own sample plugin (test/cmd/trafficrouter-plugin-sample), which the real cluster runs.
  "argoproj/sample-nginx": { type: "plugin-nginx", verify: "notImplemented" },
};

export function pluginType(name: string): string {
  return KNOWN_PLUGINS[name]?.type ?? name.split("/")[1] ?? name;
}

export function defaultVerifyMode(name: string): VerifyMode {
  return KNOWN_PLUGINS[name]?.verify ?? "verified";
}

export function normalizeProfile(input: PluginProfileInput | undefined): PluginProfile {
  if (!input || input === "healthy") return {};
  return { ...input };
}
