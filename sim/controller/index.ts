export { startController, type ControllerHandle, type ControllerOptions, type ControllerState } from "./rollout-controller";
export { TransitionLog, type TransitionEntry } from "./transition-log";
export type { PluginProfile, PluginProfileInput, VerifyMode } from "./plugin-profiles";
export { SIM_ANALYSIS_OUTCOME, SIM_ANALYSIS_SECONDS } from "./context";
export { getRolloutPhase } from "./conditions";
export type { EventLogEntry } from "./event-recorder";
