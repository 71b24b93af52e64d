export { startController } from "./rollout-controller";
export type { ControllerHandle, ControllerOptions, ControllerState, ControllerStatus } from "./controller-types";
export type { TransitionEntry } from "./transition-log";
export type { PluginProfile, PluginProfileInput, VerifyMode } from "./plugin-profiles";
export type { EventLogEntry } from "./event-recorder";
