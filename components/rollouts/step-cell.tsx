import type { RolloutSummary } from "@/lib/fleet/summary";

/**
 * The step as `kubectl argo rollouts get rollout` prints it: `currentStepIndex/len(steps)` ("1/6" while paused on
 * the second step, "6/6" once complete), with the current step's label on hover; "—" without steps or before the
 * controller set the index.
 */
export function StepCell({ step }: { step: RolloutSummary["step"] }) {
  const { current, total, index, label } = step;
  if (!total || index === null) return <span className="text-slate-500 dark:text-slate-400">{total ? `—/${total}` : "—"}</span>;
  const title = label && current !== null ? `Step ${current} of ${total}: ${label}` : index >= total ? "All steps complete" : "Not started";
  return (
    <span data-testid="step" title={title} className="tabular-nums">
      {`${index}/${total}`}
    </span>
  );
}
