import type { Tone } from "@/components/ui/badge";

/** AnalysisPhase (and measurement phase) colours: Successful green, Running blue, Failed/Error red, Inconclusive amber. */
export function analysisTone(phase: string | null | undefined): Tone {
  switch (phase) {
    case "Successful":
      return "green";
    case "Running":
      return "blue";
    case "Failed":
    case "Error":
      return "red";
    case "Inconclusive":
      return "amber";
    default:
      return "neutral";
  }
}
