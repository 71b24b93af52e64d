import type { RolloutSummary } from "@/lib/contracts/fleet-page";
import { formatStepPosition } from "@/lib/rollouts/step-position";

/**
 * The step as every screen writes it ("step 5 of 8", formatStepPosition), with the current step's label and the
 * index `kubectl argo rollouts get rollout` prints on hover; "—" without steps.
 */
export function StepCell({ step }: { step: RolloutSummary["step"] }) {
  const { total, index, label } = step;
  if (!total) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  const text = formatStepPosition(step);
  const cli = index === null ? "" : ` (kubectl index ${index})`;
  return (
    <span data-testid="step" title={label && index !== null && index < total ? `${label}${cli}` : `${text}${cli}`} className="tabular-nums">
      {text}
    </span>
  );
}
