import type { ActionRolloutState } from "./action-rollout-state";
import type { ActionPlan, KubePatchRequest } from "./plan";

export type WirePatch = Pick<KubePatchRequest, "target" | "patchType" | "body">;

/** The I/O a server supplies; `isNotFound` recognises its client's 404 error. */
export interface ActionPlanClient {
  getRollout(): Promise<ActionRolloutState>;
  patchRollout(patch: WirePatch): Promise<void>;
  isNotFound(error: unknown): boolean;
}

export type SentKubeRequest = { readonly kind: "get" } | (WirePatch & { readonly kind: "patch"; readonly outcome: "ok" | "not-found" });

/**
 * Carries out a plan the way `PromoteRollout`/`AbortRollout`/`RetryRollout` do (`pkg/kubectl-argo-rollouts/cmd/*`):
 * patches go out in order; a 404 on a patch with `onNotFound` sends the fallback to the main resource and
 * ends the plan; any other error is rethrown. Returns every request that reached the API server, in order.
 */
export async function runActionPlan(plan: ActionPlan, client: ActionPlanClient): Promise<readonly SentKubeRequest[]> {
  const sent: SentKubeRequest[] = [];
  let patches: readonly KubePatchRequest[];
  if (plan.needsGet) {
    const rolloutFromGet = await client.getRollout();
    sent.push({ kind: "get" });
    patches = plan.planAfterGet(rolloutFromGet);
  } else {
    patches = plan.requests;
  }

  for (const patch of patches) {
    const wire: WirePatch = { target: patch.target, patchType: patch.patchType, body: patch.body };
    try {
      await client.patchRollout(wire);
      sent.push({ ...wire, kind: "patch", outcome: "ok" });
    } catch (error) {
      if (patch.onNotFound === undefined || !client.isNotFound(error)) throw error;
      sent.push({ ...wire, kind: "patch", outcome: "not-found" });
      const fallback: WirePatch = { target: patch.onNotFound.target, patchType: "merge", body: patch.onNotFound.body };
      await client.patchRollout(fallback);
      sent.push({ ...fallback, kind: "patch", outcome: "ok" });
      break; // the unified patch replaces the spec patch that would have followed
    }
  }
  return sent;
}
