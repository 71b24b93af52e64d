import { DOT_TONES } from "@/components/ui/badge";
import { focusRing } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatCount } from "@/lib/format/count";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import { PHASES } from "@/lib/overview/fleet-query";
import { PHASE_TONE } from "./phase-badge";

interface PhaseCountChipsProps {
  counts: Record<RolloutPhase, number>;
  total: number;
  active: RolloutPhase | "";
  onSelect: (phase: RolloutPhase | "") => void;
}

/** Counts by phase that double as the phase filter; clicking the active one clears it. */
export function PhaseCountChips({ counts, total, active, onSelect }: PhaseCountChipsProps) {
  const chip = (selected: boolean) =>
    cn(
      "inline-flex h-8 items-center gap-2 rounded-md border px-2.5 text-sm transition-colors",
      selected
        ? "border-slate-900 bg-slate-900 text-white dark:border-slate-100 dark:bg-slate-100 dark:text-slate-900"
        : "border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-300 dark:hover:bg-slate-800",
      focusRing,
    );
  return (
    <div role="group" aria-label="Filter by phase" className="flex flex-wrap gap-1.5">
      <button
        type="button"
        data-testid="phase-count"
        data-phase=""
        aria-pressed={active === ""}
        onClick={() => onSelect("")}
        className={chip(active === "")}
      >
        All <span className="font-semibold tabular-nums">{formatCount(total)}</span>
      </button>
      {PHASES.map((phase) => (
        <button
          key={phase}
          type="button"
          data-testid="phase-count"
          data-phase={phase}
          data-count={counts[phase]}
          aria-pressed={active === phase}
          onClick={() => onSelect(active === phase ? "" : phase)}
          className={chip(active === phase)}
        >
          <span aria-hidden className={cn("size-2 rounded-full", DOT_TONES[PHASE_TONE[phase]])} />
          {phase} <span className="font-semibold tabular-nums">{formatCount(counts[phase])}</span>
        </button>
      ))}
    </div>
  );
}
