/**
 * The few Rollout fields the action planner reads. Everything is optional and nullable so a raw
 * CR, a zod `looseObject` parse or a test literal all fit; missing fields read as Go zero values.
 */
export interface ActionRolloutState {
  readonly metadata?: { readonly annotations?: Readonly<Record<string, string>> | null } | null;
  readonly spec?: {
    readonly paused?: boolean | null;
    readonly workloadRef?: unknown;
    readonly strategy?: {
      readonly canary?: { readonly steps?: readonly unknown[] | null } | null;
      readonly blueGreen?: object | null;
    } | null;
  } | null;
  readonly status?: {
    /** `status.phase` as written by the controller; prefer passing the GetRolloutPhase result separately. */
    readonly phase?: string | null;
    readonly pauseConditions?: readonly { readonly reason?: string | null }[] | null;
    readonly controllerPause?: boolean | null;
    readonly currentStepIndex?: number | null;
    readonly currentPodHash?: string | null;
    readonly stableRS?: string | null;
    readonly abort?: boolean | null;
    readonly canary?: {
      readonly currentStepAnalysisRunStatus?: { readonly status?: string | null } | null;
    } | null;
  } | null;
}
