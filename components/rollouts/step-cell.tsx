import type { RolloutSummary } from "@/lib/fleet/summary";

/** "3/8" with the current step's label on hover; "8/8" once complete; "—" without steps. */
export function StepCell({ step }: { step: RolloutSummary["step"] }) {
  const { current, total, index, label } = step;
  if (!total) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  const done = current === null && index !== null && index >= total;
  const text = current !== null ? `${current}/${total}` : done ? `${total}/${total}` : `–/${total}`;
  const title = label ? `Step ${current}/${total}: ${label}` : done ? "All steps complete" : "Not started";
  return (
    <span data-testid="step" title={title} className="tabular-nums">
      {text}
    </span>
  );
}
