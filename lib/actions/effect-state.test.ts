import { describe, expect, it } from "vitest";
import { loadRolloutFixture, loadRolloutFixtureWith } from "@/lib/rollouts/fixtures.test-helper";
import { toRolloutView } from "@/lib/rollouts/view-model";
import type { RolloutResource } from "@/lib/rollouts/schema";
import { describeActionEffect } from "./effect";
import { deriveActionEffectState } from "./effect-state";

function effectOf(rollout: RolloutResource, action: Parameters<typeof describeActionEffect>[0]): string {
  const view = toRolloutView(rollout, new Date("2026-08-18T09:45:00Z"));
  const state = deriveActionEffectState(rollout, {
    strategy: view.strategy,
    requestedPercent: view.requestedWeight?.percent ?? null,
    maxTrafficWeight: view.maxTrafficWeight,
  });
  return describeActionEffect(action, state);
}

describe("deriveActionEffectState on real Rollouts", () => {
  it("paused at pause {} after setWeight 30: promote lands on the next setWeight and stops at the next pause", () => {
    const rollout = loadRolloutFixture("indefinite-pause");
    expect(effectOf(rollout, "promote")).toBe("Canary 30 % → 60 % (skips pause at step 6 of 8; next: pause)");
    expect(effectOf(rollout, "promote-full")).toBe("Promote full: canary 30 % → 100 %, skipping the remaining 3 steps");
    expect(effectOf(rollout, "abort")).toBe("Abort: canary 30 % → 0 %; the Rollout becomes Degraded");
  });

  it("converts permille weights (maxTrafficWeight 1000) to percent", () => {
    expect(effectOf(loadRolloutFixture("max-traffic-weight-1000"), "promote")).toBe(
      "Canary 30 % → 75 % (skips pause at step 4 of 6; next: pause)",
    );
  });

  it("a step followed by another holding step keeps the weight", () => {
    expect(effectOf(loadRolloutFixture("analysis-running"), "promote")).toBe(
      "Canary stays at 30 % (skips analysis at step 5 of 8; next: pause)",
    );
  });

  it("the last step promotes to 100 %", () => {
    const atLast = loadRolloutFixtureWith("indefinite-pause", (r) => {
      if (r.status) r.status.currentStepIndex = 7;
    });
    expect(effectOf(atLast, "promote")).toBe("Canary 60 % → 100 % (skips pause at step 8 of 8)");
  });

  it("blue-green has no weights", () => {
    expect(effectOf(loadRolloutFixture("blue-green"), "promote")).toBe("Promote: the preview ReplicaSet becomes active");
  });
});
