import { describe, expect, it } from "vitest";
import type { AttentionReason } from "@/lib/rollouts/view-model";
import { attributeAttention, isOwnProblemOnly } from "./router-attribution";

const PLUGIN = "argoproj-labs/gatewayAPI";
const rollout = (attention: AttentionReason[], parseError: string | null = null) => ({
  namespace: "shop",
  name: "checkout",
  attention,
  parseError,
});

describe("attributeAttention: whose is each needs-attention reason", () => {
  it("gives the router its failed calls, its missing registration and an unverified weight", () => {
    const reasons: AttentionReason[] = [
      { code: "ReconcileFailing", message: "TrafficRoutingError: failed to set weight via plugin: 503" },
      { code: "PluginNotRegistered", message: `Traffic-router plugin ${PLUGIN} is not registered in prod's argo-rollouts-config` },
      { code: "WeightNotVerified", message: "Canary weight 20 % not verified" },
      { code: "Degraded", message: "failed to get traffic router plugin argoproj-labs/gatewayAPI: unable to start plugin system" },
    ];
    expect(attributeAttention(rollout(reasons), PLUGIN)).toEqual({ router: reasons, other: [] });
  });

  it("leaves the Rollout its own: an analysis failure, an abort, a missing Service, another plugin, no progress", () => {
    const reasons: AttentionReason[] = [
      { code: "AnalysisFailed", message: "Metric success-rate assessed Failed" },
      { code: "Aborted", message: "RolloutAborted: Rollout aborted update to revision 2" },
      { code: "Degraded", message: 'ServiceNotFound: service "checkout-canary" not found' },
      { code: "PluginNotRegistered", message: "Step plugin acme/slack is not registered in prod's argo-rollouts-config" },
      { code: "NoProgress", message: "Progressing, but nothing has changed for 12m" },
    ];
    expect(attributeAttention(rollout(reasons), PLUGIN)).toEqual({ router: [], other: reasons });
    expect(isOwnProblemOnly(rollout(reasons), PLUGIN)).toBe(true);
  });

  it("counts a pause waiting for promotion as nobody's problem, and keeps a Rollout with the router's reasons in its figures", () => {
    const waiting = rollout([{ code: "AwaitingPromotion", message: "Paused at step 2 of 4" }]);
    expect(attributeAttention(waiting, PLUGIN)).toEqual({ router: [], other: [] });
    expect(isOwnProblemOnly(waiting, PLUGIN)).toBe(false);
    const both = rollout([
      { code: "Aborted", message: "aborted" },
      { code: "WeightNotVerified", message: "not verified" },
    ]);
    expect(isOwnProblemOnly(both, PLUGIN)).toBe(false);
    expect(attributeAttention(rollout([], "spec.replicas: expected number"), PLUGIN).other).toEqual([
      { code: "Degraded", message: "unreadable spec: spec.replicas: expected number" },
    ]);
  });
});
