/** Where a Rollout lives in the fleet. */
export interface RolloutRef {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
}
