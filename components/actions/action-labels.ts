import type { RolloutAction } from "@/lib/actions/schema";

export const ACTION_LABELS: Record<RolloutAction, string> = {
  promote: "Promote",
  "promote-full": "Promote full",
  abort: "Abort",
  retry: "Retry",
  pause: "Pause",
  resume: "Resume",
  restart: "Restart",
};

/** Actions that cut traffic or skip every check get a red confirm button. */
export const DESTRUCTIVE_ACTIONS: ReadonlySet<RolloutAction> = new Set(["abort", "promote-full"]);
