import { Badge, type Tone } from "@/components/ui/badge";
import type { RolloutPhase } from "@/lib/rollouts/phase";
import { clipTitle } from "@/components/ui/long-text";

export const PHASE_TONE: Record<RolloutPhase, Tone> = {
  Healthy: "green",
  Progressing: "blue",
  Paused: "amber",
  Degraded: "red",
};

/** Healthy green, Progressing blue, Paused amber, Degraded red; the phase message on hover. */
export function PhaseBadge({ phase, message }: { phase: RolloutPhase; message?: string | null }) {
  return (
    <Badge tone={PHASE_TONE[phase] ?? "neutral"} dot data-testid="phase" data-phase={phase} title={message ? clipTitle(message) : phase}>
      {phase}
    </Badge>
  );
}
