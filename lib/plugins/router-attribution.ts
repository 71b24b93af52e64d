import type { AttentionReason, RolloutView } from "@/lib/rollouts/view-model";

/** What attribution reads of a Rollout: the needs-attention reasons the overview's queue shows for it. */
export type AttributedRollout = Pick<RolloutView, "namespace" | "name" | "attention"> & { parseError: string | null };

/** A Rollout's current problems split by whose they are, for one traffic-router plugin. */
export interface RouterAttribution {
  /** Reasons that are the router's: it is not registered, its calls fail, the weight it applied is not verified. */
  router: AttentionReason[];
  /** Reasons of the Rollout's own (an analysis failure, an abort, a missing Service, no progress): not the router's. */
  other: AttentionReason[];
}

const ROUTING_FAILURE = /TrafficRoutingError|WeightVerifyError|via plugin|traffic router plugin/i;

function isRoutersReason(reason: AttentionReason, plugin: string): boolean | null {
  switch (reason.code) {
    case "AwaitingPromotion":
    case "NeedsResume":
      return null; // a pause waiting for someone: nobody's problem
    case "WeightNotVerified":
      return true;
    case "PluginNotRegistered":
      return reason.message.includes(plugin);
    case "ReconcileFailing":
    case "WarningEvent":
    case "Degraded":
      return ROUTING_FAILURE.test(reason.message) || reason.message.includes(plugin);
    default:
      return false;
  }
}

/**
 * Whose each of a Rollout's needs-attention reasons is, for `plugin`. The reasons are the queue's (RolloutView
 * `attention`), so the plugins page and the overview agree by construction on whether a Rollout is affected now.
 */
export function attributeAttention(rollout: AttributedRollout, plugin: string): RouterAttribution {
  const router: AttentionReason[] = [];
  const other: AttentionReason[] = [];
  for (const reason of rollout.attention) {
    const routers = isRoutersReason(reason, plugin);
    if (routers === true) router.push(reason);
    else if (routers === false) other.push(reason);
  }
  if (rollout.parseError) other.push({ code: "Degraded", message: `unreadable spec: ${rollout.parseError}` });
  return { router, other };
}

/**
 * Whether the Rollout's controller signals are left out of the router's derived figures: it has problems of its own
 * and none of the router's, so its reconcile errors (a missing Service, an invalid spec) are not the router's failures.
 */
export function isOwnProblemOnly(rollout: AttributedRollout, plugin: string): boolean {
  const { router, other } = attributeAttention(rollout, plugin);
  return router.length === 0 && other.length > 0;
}
