import { describe, expect, it } from "vitest";
import { completedCanaryPauseStep, PauseContext } from "./pause-context";
import type { Rollout, RolloutStatus } from "./types";

const NOW = "2026-08-18T09:41:02Z";
function ro(status: RolloutStatus): Rollout {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "x" },
    spec: { template: {}, strategy: { canary: {} } },
    status,
  };
}

describe("pauseContext", () => {
  it("adds a condition once, with controllerPause", () => {
    const r = ro({});
    const pc = new PauseContext(
      () => r,
      () => NOW,
    );
    pc.addPauseCondition("CanaryPauseStep");
    const status: RolloutStatus = {};
    pc.calculatePauseStatus(status);
    expect(status).toEqual({ controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep", startTime: NOW }] });
  });

  it("removing the last condition leaves neither pauseConditions nor controllerPause", () => {
    const r = ro({ controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep", startTime: NOW }] });
    const pc = new PauseContext(
      () => r,
      () => NOW,
    );
    pc.removePauseCondition("CanaryPauseStep");
    const status: RolloutStatus = {};
    pc.calculatePauseStatus(status);
    expect(status).toEqual({});
  });

  it("an abort keeps the first abortedAt and drops pause conditions; retry clears both", () => {
    const aborted = ro({
      abort: true,
      abortedAt: "2026-08-18T09:00:00Z",
      pauseConditions: [{ reason: "CanaryPauseStep", startTime: NOW }],
    });
    const status: RolloutStatus = {};
    new PauseContext(
      () => aborted,
      () => NOW,
    ).calculatePauseStatus(status);
    expect(status).toEqual({ abort: true, abortedAt: "2026-08-18T09:00:00Z" });
    const retried = ro({ abort: false, abortedAt: "2026-08-18T09:00:00Z" });
    const after: RolloutStatus = { abortedAt: "x" };
    new PauseContext(
      () => retried,
      () => NOW,
    ).calculatePauseStatus(after);
    expect(after).toEqual({});
  });

  it("a pause step completes when unpaused by the user or when its duration has passed", () => {
    const elapsed = (s: number) => () => s;
    expect(completedCanaryPauseStep(ro({ controllerPause: true }), {}, elapsed(0))).toBe(true);
    expect(
      completedCanaryPauseStep(
        ro({ controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep", startTime: NOW }] }),
        {},
        elapsed(1e9),
      ),
    ).toBe(false);
    const timed = ro({ controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep", startTime: NOW }] });
    expect(completedCanaryPauseStep(timed, { duration: "5m" }, elapsed(299))).toBe(false);
    expect(completedCanaryPauseStep(timed, { duration: "5m" }, elapsed(301))).toBe(true);
  });
});
