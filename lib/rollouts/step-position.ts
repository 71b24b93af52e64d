/**
 * Where a canary Rollout is in its steps: the raw 0-based `status.currentStepIndex` (null while the controller has
 * not set it) and the number of steps.
 */
export interface StepPosition {
  index: number | null;
  total: number;
}

/**
 * The one way Rollscope writes a step position, on every screen: 1-based, "step 5 of 8" while the controller is on
 * the fifth step (`currentStepIndex` 4), "all 8 steps done" once the index has run past the last step, "step – of 8"
 * before the index is set, "no steps" without steps.
 */
export function formatStepPosition({ index, total }: StepPosition): string {
  if (total <= 0) return "no steps";
  if (index === null) return `step – of ${total}`;
  if (index >= total) return `all ${total} steps done`;
  return `step ${Math.max(index, 0) + 1} of ${total}`;
}

/**
 * The step position with the index `kubectl argo rollouts get rollout` prints (`currentStepIndex/len(steps)`), named
 * as such so the two numbers cannot be mistaken for one another: "step 5 of 8 · kubectl index 4".
 */
export function formatStepPositionWithCliIndex(position: StepPosition): string {
  const text = formatStepPosition(position);
  return position.total > 0 && position.index !== null ? `${text} · kubectl index ${position.index}` : text;
}
