import type { RolloutAction } from "@/lib/actions/schema";

export const ACTION_LABELS: Record<RolloutAction, string> = {
  promote: "Promote",
  "promote-full": "Promote full",
  abort: "Abort",
  retry: "Retry",
  pause: "Pause",
  resume: "Resume",
  restart: "Restart",
  undo: "Undo",
  "set-image": "Set image",
};

/** Actions that cut traffic, skip every check or replace the pod template (undo, set image) get a red confirm button. */
export const DESTRUCTIVE_ACTIONS: ReadonlySet<RolloutAction> = new Set(["abort", "promote-full", "undo", "set-image"]);
