import { describe, expect, it } from "vitest";
import { describeActionEffect, type ActionEffectState } from "./effect";

const atPause: ActionEffectState = {
  requestedPercent: 30,
  nextStepWeightPercent: 60,
  stepIndex: 5,
  totalSteps: 8,
  stepLabel: "pause",
};

describe("describeActionEffect", () => {
  it("promote names the weight change and the step it skips", () => {
    expect(describeActionEffect("promote", atPause)).toBe("Canary 30 % → 60 % (skips pause at step 6 of 8)");
    expect(describeActionEffect("promote", { ...atPause, nextStepLabel: "analysis" })).toBe(
      "Canary 30 % → 60 % (skips pause at step 6 of 8; next: analysis)",
    );
  });

  it("promote without a weight change or step label", () => {
    expect(describeActionEffect("promote", { requestedPercent: 30, stepIndex: 2, totalSteps: 8 })).toBe(
      "Canary stays at 30 % (leaves step 3 of 8)",
    );
    expect(describeActionEffect("promote", { requestedPercent: 100, stepIndex: 8, totalSteps: 8 })).toBe(
      "Canary stays at 100 % (all steps are complete)",
    );
  });

  it("promote full counts the current step among the remaining ones", () => {
    expect(describeActionEffect("promote-full", atPause)).toBe("Promote full: canary 30 % → 100 %, skipping the remaining 3 steps");
    expect(describeActionEffect("promote-full", { ...atPause, stepIndex: 7 })).toBe(
      "Promote full: canary 30 % → 100 %, skipping the remaining 1 step",
    );
    expect(describeActionEffect("promote-full", { ...atPause, stepIndex: 8 })).toBe("Promote full: canary 30 % → 100 %");
  });

  it("abort, retry, pause, resume and restart", () => {
    expect(describeActionEffect("abort", atPause)).toBe("Abort: canary 30 % → 0 %; the Rollout becomes Degraded");
    expect(describeActionEffect("retry", atPause)).toBe("Retry: clears the abort and restarts the update from step 1 of 8");
    expect(describeActionEffect("pause", atPause)).toBe("Pause: canary stays at 30 % until the Rollout is resumed or promoted");
    expect(describeActionEffect("resume", atPause)).toBe("Resume: clears the manual pause; step 6 of 8 continues at canary 30 %");
    expect(describeActionEffect("restart", atPause)).toBe(
      "Restart: pods are recreated ReplicaSet by ReplicaSet; traffic weights do not change",
    );
  });

  it("rounds fractional weights (non-100 maxTrafficWeight) to one decimal", () => {
    expect(describeActionEffect("abort", { ...atPause, requestedPercent: 100 / 3 })).toBe(
      "Abort: canary 33.3 % → 0 %; the Rollout becomes Degraded",
    );
  });

  it("describes blue-green without canary weights", () => {
    const bg: ActionEffectState = { strategy: "blueGreen", requestedPercent: 0, stepIndex: 0, totalSteps: 0 };
    expect(describeActionEffect("promote", bg)).toBe("Promote: the preview ReplicaSet becomes active");
    expect(describeActionEffect("promote-full", bg)).toBe(
      "Promote full: the preview ReplicaSet becomes active now, skipping pauses and analysis",
    );
    expect(describeActionEffect("abort", bg)).toBe(
      "Abort: traffic stays on the stable ReplicaSet and the preview scales down; the Rollout becomes Degraded",
    );
    expect(describeActionEffect("retry", bg)).toBe("Retry: clears the abort and restarts the update");
    expect(describeActionEffect("resume", bg)).toBe("Resume: clears the manual pause; the update continues");
  });
});

describe("promote full on an aborted Rollout", () => {
  it("says it clears the abort and goes to 100 %, as the CLI's promote --full does", () => {
    const aborted = { requestedPercent: 0, stepIndex: 0, totalSteps: 8, aborted: true } as const;
    expect(describeActionEffect("promote-full", aborted)).toBe(
      "Promote full: clears the abort and sends 100 % of traffic to the aborted revision now, skipping its steps (as kubectl argo rollouts promote --full)",
    );
  });
});
