import { z } from "zod";
import type { RolloutAction } from "@/lib/actions/schema";
import type { SentKubeRequest } from "@/lib/actions/run-action-plan";
import type { UndoSentRequest } from "@/lib/actions/undo";
import type { SetImageSentRequest } from "@/lib/actions/set-image";
import type { RolloutRef } from "@/lib/rollouts/rollout-ref";
import { apiPath, rolloutPath } from "./paths";

/*
 * `GET  /api/clusters/{c}/rollouts/{ns}/{name}/actions` → RolloutActionsView (what each button shows)
 * `POST …/actions` (body RolloutActionRequest)            → RolloutActionResult; every attempt is audited
 */

export { RolloutActionRequest } from "@/lib/actions/schema";

export interface RolloutActionOption {
  /** State allows it, the user may do it, and the dashboard is not read-only. */
  enabled: boolean;
  /** Why not, when disabled: the permission reason first, then the state reason. */
  reason?: string;
  /** The user's permission alone (RBAC or role mapping). */
  permitted: boolean;
  /** One line for the confirmation dialog, e.g. "Canary 30 % → 60 % (skips pause at step 2 of 4)". */
  effect: string;
  /** In a cluster labelled production, promote-full and abort need the rollout's name typed. */
  typedConfirmation: boolean;
  /** The requests it would send now, e.g. `PATCH rollouts/checkout/status {"status":{"abort":true}}`. */
  requests: string[];
}

/** What the action buttons of one Rollout show. */
export interface RolloutActionsView {
  cluster: string;
  namespace: string;
  name: string;
  readOnly: boolean;
  /** On whose authority actions run, e.g. "Actions run as alice (impersonated)…". */
  actingAs: string;
  production: boolean;
  /**
   * The state these options were computed from: send it back as `expected`. `fingerprint` digests what an action's
   * outcome depends on, so a later resourceVersion that differs only in replica counts or timestamps is accepted
   * (by any replica, after a restart too).
   */
  expected: { resourceVersion: string | null; revision: string | null; stepIndex: number | null; fingerprint: string };
  actions: Record<RolloutAction, RolloutActionOption>;
  /** The pod template's containers (init and ephemeral ones included) with their images: what set image offers. */
  containers: Array<{ name: string; image: string }>;
}

export interface RolloutActionResult {
  action: RolloutAction;
  outcome: "done";
  message: string;
  /** Every request that reached the API server, in order. */
  requests: Array<SentKubeRequest | UndoSentRequest | SetImageSentRequest>;
}

/** Most Rollouts one batch asks about: the queue's collapsed cards and then some. */
export const MAX_ACTIONS_BATCH = 32;

/**
 * `GET /api/rollouts/actions?key=c/ns/name&key=…` → RolloutActionsBatch: the buttons of several Rollouts in one
 * request (the needs-attention queue's cards), each view or why it could not be read; a Rollout the user may not
 * read is "not found", as on its own.
 */
export const RolloutActionsBatchQuery = z.object({
  key: z.array(z.string().min(5).max(760)).min(1).max(MAX_ACTIONS_BATCH),
});

export interface RolloutActionsBatch {
  views: Record<string, RolloutActionsView>;
  errors: Record<string, { code: string; message: string }>;
}

export function rolloutActionsBatchPath(keys: readonly string[]) {
  return apiPath("GET /api/rollouts/actions", `/api/rollouts/actions?${keys.map((k) => `key=${encodeURIComponent(k)}`).join("&")}`);
}

export function rolloutActionsPath(rollout: RolloutRef) {
  return apiPath("GET /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", `${rolloutPath(rollout)}/actions`);
}

/** The same URL, to POST an action to. */
export function runRolloutActionPath(rollout: RolloutRef) {
  return apiPath("POST /api/clusters/[cluster]/rollouts/[namespace]/[name]/actions", `${rolloutPath(rollout)}/actions`);
}
