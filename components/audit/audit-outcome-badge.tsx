import { Badge, type Tone } from "@/components/ui/badge";

const TONES: Record<string, Tone> = { done: "green", denied: "red", stale: "amber", conflict: "amber", error: "red" };

export function AuditOutcomeBadge({ outcome }: { outcome: string }) {
  return (
    <Badge tone={TONES[outcome] ?? "neutral"} dot data-testid="audit-outcome">
      {outcome}
    </Badge>
  );
}
