import { Badge, type Tone } from "@/components/ui/badge";

const TONES: Record<string, Tone> = {
  pending: "blue",
  done: "green",
  denied: "red",
  stale: "amber",
  conflict: "amber",
  error: "red",
  interrupted: "violet",
};
/** Outcomes whose name alone would mislead: a pending action may be running; an interrupted one may have gone through. */
const LABELS: Record<string, string> = { pending: "pending (in progress)", interrupted: "unknown (interrupted)" };

export function AuditOutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <Badge tone={TONES[outcome] ?? "neutral"} dot data-testid="audit-outcome">
      {LABELS[outcome] ?? outcome}
    </Badge>
  );
}
