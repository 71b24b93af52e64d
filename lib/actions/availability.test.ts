import { describe, expect, it } from "vitest";
import type { ActionRolloutState } from "./action-rollout-state";
import { deriveActionAvailability } from "./availability";

const steps = [{ setWeight: 30 }, { pause: {} }, { setWeight: 60 }, { pause: { duration: "5m" } }];

const pausedAtStep: ActionRolloutState = {
  spec: { strategy: { canary: { steps } } },
  status: {
    phase: "Paused",
    currentStepIndex: 1,
    currentPodHash: "new",
    stableRS: "old",
    controllerPause: true,
    pauseConditions: [{ reason: "CanaryPauseStep" }],
  },
};

const healthy: ActionRolloutState = {
  spec: { strategy: { canary: { steps } } },
  status: { phase: "Healthy", currentStepIndex: 4, currentPodHash: "new", stableRS: "new" },
};

const aborted: ActionRolloutState = {
  spec: { strategy: { canary: { steps } } },
  status: { phase: "Degraded", abort: true, currentStepIndex: 0, currentPodHash: "new", stableRS: "old" },
};

describe("deriveActionAvailability", () => {
  it("a canary paused at a step can be promoted, fully promoted, aborted, paused and restarted", () => {
    expect(deriveActionAvailability(pausedAtStep)).toStrictEqual({
      promote: { enabled: true },
      "promote-full": { enabled: true },
      abort: { enabled: true },
      retry: { enabled: false, reason: "Retry is only available after an abort" },
      pause: { enabled: true },
      resume: {
        enabled: false,
        reason: "Rollout is paused by a step or analysis, not manually; use Promote to continue",
      },
      restart: { enabled: true },
      undo: { enabled: false, reason: "There is no earlier revision to roll back to" },
      "set-image": { enabled: true },
    });
  });

  it("undo needs an earlier revision", () => {
    const second = { ...pausedAtStep, metadata: { annotations: { "rollout.argoproj.io/revision": "2" } } };
    expect(deriveActionAvailability(second).undo).toStrictEqual({ enabled: true });
  });

  it("a Healthy Rollout only allows restart and pause", () => {
    expect(deriveActionAvailability(healthy)).toStrictEqual({
      promote: {
        enabled: false,
        reason: "Promote is only available while the Rollout is Progressing or Paused (it is Healthy)",
      },
      "promote-full": {
        enabled: false,
        reason: "Promote full is only available while the Rollout is Progressing or Paused (it is Healthy)",
      },
      abort: {
        enabled: false,
        reason: "Abort is only available while the Rollout is Progressing or Paused (it is Healthy)",
      },
      retry: { enabled: false, reason: "Retry is only available after an abort" },
      pause: { enabled: true },
      resume: { enabled: false, reason: "Rollout is not manually paused" },
      restart: { enabled: true },
      undo: { enabled: false, reason: "There is no earlier revision to roll back to" },
      "set-image": { enabled: true },
    });
  });

  it("an aborted Rollout offers retry and promote full (as the CLI does), not abort or promote", () => {
    const availability = deriveActionAvailability(aborted);
    expect(availability.retry).toStrictEqual({ enabled: true });
    expect(availability.abort).toStrictEqual({ enabled: false, reason: "Rollout is already aborted" });
    expect(availability.promote).toStrictEqual({
      enabled: false,
      reason: "Rollout is aborted; retry it before promoting",
    });
    expect(availability["promote-full"]).toStrictEqual({ enabled: true });
    expect(availability.restart.enabled).toBe(true);
  });

  it("retry is enabled on a Degraded Rollout even without an abort, as in the official UI", () => {
    const deadline: ActionRolloutState = { ...healthy, status: { ...healthy.status, phase: "Degraded" } };
    expect(deriveActionAvailability(deadline).retry).toStrictEqual({ enabled: true });
  });

  it("uses the caller's derived phase over status.phase", () => {
    // GetRolloutPhase: controllerPause without pause conditions is Progressing ("waiting for rollout to unpause").
    const unpausing: ActionRolloutState = {
      ...pausedAtStep,
      status: { ...pausedAtStep.status, phase: "Paused", pauseConditions: [], currentStepIndex: 2 },
    };
    expect(deriveActionAvailability(unpausing, { phase: "Progressing" }).abort).toStrictEqual({ enabled: true });
    expect(deriveActionAvailability(healthy, { phase: "Progressing" }).abort).toStrictEqual({ enabled: true });
    expect(deriveActionAvailability({}, {}).promote).toStrictEqual({
      enabled: false,
      reason: "Promote is only available while the Rollout is Progressing or Paused (it is in an unknown phase)",
    });
  });

  it("promote-full is disabled once currentPodHash equals stableRS", () => {
    const done: ActionRolloutState = { ...healthy, status: { ...healthy.status, phase: "Progressing" } };
    expect(deriveActionAvailability(done)["promote-full"]).toStrictEqual({
      enabled: false,
      reason: "Already fully promoted",
    });
  });

  it("promote is disabled when upstream would patch nothing (blue-green, not paused)", () => {
    const bg: ActionRolloutState = {
      spec: { strategy: { blueGreen: {} } },
      status: { phase: "Progressing", currentPodHash: "new", stableRS: "old" },
    };
    expect(deriveActionAvailability(bg).promote).toStrictEqual({
      enabled: false,
      reason: "Nothing to promote: the Rollout is not paused and has no step to skip",
    });
    const bgPaused: ActionRolloutState = {
      ...bg,
      status: { ...bg.status, phase: "Paused", pauseConditions: [{ reason: "BlueGreenPause" }] },
    };
    expect(deriveActionAvailability(bgPaused).promote).toStrictEqual({ enabled: true });
  });

  it("a manually paused Rollout can be resumed but not paused again", () => {
    const manual: ActionRolloutState = {
      ...pausedAtStep,
      spec: { ...pausedAtStep.spec, paused: true },
      status: { ...pausedAtStep.status, controllerPause: false, pauseConditions: [] },
    };
    const availability = deriveActionAvailability(manual);
    expect(availability.pause).toStrictEqual({ enabled: false, reason: "Rollout is already paused" });
    expect(availability.resume).toStrictEqual({ enabled: true });
  });
});
