export { startController } from "./rollout-controller";
export type { ControllerHandle, ControllerOptions, ControllerState, ControllerStatus } from "./controller-types";
export { TransitionLog, type TransitionEntry } from "./transition-log";
export type { PluginProfile, PluginProfileInput, VerifyMode } from "./plugin-profiles";
export { SIM_ANALYSIS_OUTCOME, SIM_ANALYSIS_SECONDS } from "./context";
export { getRolloutPhase } from "./conditions";
export type { EventLogEntry } from "./event-recorder";
