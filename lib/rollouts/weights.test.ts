import { describe, expect, it } from "vitest";
import { loadRolloutFixture, loadRolloutFixtureWith } from "./fixtures.test-helper";
import { deriveAppliedWeights, deriveRequestedWeight } from "./weights";

describe("deriveRequestedWeight", () => {
  it.each([
    ["indefinite-pause", 30, 30],
    ["timed-pause", 10, 10],
    ["analysis-running", 30, 30],
    ["plugin-and-builtin-router", 20, 20],
    ["unknown-future-fields", 25, 25],
    ["max-traffic-weight-1000", 300, 30],
  ])("%s requests %d (%d%%)", (name, weight, percent) => {
    expect(deriveRequestedWeight(loadRolloutFixture(name))).toMatchObject({ weight, percent });
  });

  it("aborted rollout requests 0% even though step 4 says 30", () => {
    const rollout = loadRolloutFixtureWith("aborted", (r) => {
      if (r.status) r.status.currentStepIndex = 3;
    });
    expect(deriveRequestedWeight(rollout)).toEqual({ weight: 0, maxTrafficWeight: 100, percent: 0 });
    expect(deriveRequestedWeight(loadRolloutFixture("aborted"))?.weight).toBe(0);
  });

  it("fully promoted rollout requests the maximum", () => {
    expect(deriveRequestedWeight(loadRolloutFixture("fully-promoted"))).toEqual({
      weight: 100,
      maxTrafficWeight: 100,
      percent: 100,
    });
  });

  it("past the last step with maxTrafficWeight 1000 requests 1000 (100%)", () => {
    const rollout = loadRolloutFixtureWith("max-traffic-weight-1000", (r) => {
      if (r.status) r.status.currentStepIndex = 6;
    });
    expect(deriveRequestedWeight(rollout)).toEqual({ weight: 1000, maxTrafficWeight: 1000, percent: 100 });
  });

  it("canary without steps requests the maximum", () => {
    const rollout = loadRolloutFixtureWith("fully-promoted", (r) => {
      if (r.spec?.strategy?.canary) r.spec.strategy.canary.steps = [];
    });
    expect(deriveRequestedWeight(rollout)?.weight).toBe(100);
  });

  it("an unset currentStepIndex counts as step 0, as upstream", () => {
    expect(deriveRequestedWeight(loadRolloutFixture("no-status"))?.weight).toBe(10);
  });

  it("requests 0 before the first setWeight", () => {
    const rollout = loadRolloutFixture("plugin-and-builtin-router");
    const atStep = (index: number) =>
      deriveRequestedWeight(
        loadRolloutFixtureWith("plugin-and-builtin-router", (r) => {
          if (r.status) r.status.currentStepIndex = index;
        }),
      )?.weight;
    expect(rollout.spec?.strategy?.canary?.steps?.[4].setWeight).toBe(20);
    expect(atStep(3)).toBe(0);
    expect(atStep(4)).toBe(20);
    expect(atStep(10)).toBe(100);
  });

  it("is null for blue-green", () => {
    expect(deriveRequestedWeight(loadRolloutFixture("blue-green"))).toBeNull();
  });
});

describe("deriveAppliedWeights", () => {
  it("reads canary, stable and verified from status.canary.weights", () => {
    expect(deriveAppliedWeights(loadRolloutFixture("indefinite-pause"))).toEqual({
      canary: { weight: 30, percent: 30, serviceName: "checkout-canary", podTemplateHash: "6c9f8b7d5d" },
      stable: { weight: 70, percent: 70, serviceName: "checkout-stable", podTemplateHash: "7b4f9c6d88" },
      additional: [],
      verified: true,
      maxTrafficWeight: 100,
      canaryPercent: 30,
      stablePercent: 70,
    });
  });

  it("maxTrafficWeight 1000 with canary 300 shows 30%, and verified is absent → null", () => {
    const weights = deriveAppliedWeights(loadRolloutFixture("max-traffic-weight-1000"));
    expect(weights).toMatchObject({ canaryPercent: 30, stablePercent: 70, maxTrafficWeight: 1000, verified: null });
    expect(weights?.canary.weight).toBe(300);
  });

  it("keeps experiment weights as additional destinations and verified false", () => {
    const weights = deriveAppliedWeights(loadRolloutFixture("plugin-and-builtin-router"));
    expect(weights?.verified).toBe(false);
    expect(weights?.additional).toEqual([
      { weight: 5, percent: 5, serviceName: "storefront-canary-preview", podTemplateHash: "6a7b8c9d0" },
      { weight: 5, percent: 5, serviceName: "storefront-baseline", podTemplateHash: "7c6b5d8f9" },
    ]);
    expect(weights && weights.canaryPercent + weights.stablePercent).toBe(90);
  });

  it("aborted rollout has sent all traffic back to stable", () => {
    expect(deriveAppliedWeights(loadRolloutFixture("aborted"))).toMatchObject({ canaryPercent: 0, stablePercent: 100 });
  });

  it("is null without traffic routing, for blue-green and before the first reconcile", () => {
    expect(deriveAppliedWeights(loadRolloutFixture("progress-deadline-exceeded"))).toBeNull();
    expect(deriveAppliedWeights(loadRolloutFixture("blue-green"))).toBeNull();
    expect(deriveAppliedWeights(loadRolloutFixture("no-status"))).toBeNull();
  });

  it("rounds thirds to two decimals", () => {
    const weights = deriveAppliedWeights({
      metadata: { name: "x" },
      spec: { strategy: { canary: { trafficRouting: { maxTrafficWeight: 3, plugins: { "a/b": {} } } } } },
      status: { canary: { weights: { canary: { weight: 1 }, stable: { weight: 2 } } } },
    });
    expect(weights).toMatchObject({ canaryPercent: 33.33, stablePercent: 66.67 });
    expect(weights?.canary.serviceName).toBeNull();
  });
});
