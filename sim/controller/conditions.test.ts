import { describe, expect, it } from "vitest";
import { calculateMetricsPhase, calculateRolloutPhase, getRolloutPhase, newCondition, setCondition } from "./conditions";
import type { Rollout, RolloutSpec, RolloutStatus } from "./types";

const canary: RolloutSpec = {
  replicas: 10,
  template: {},
  strategy: { canary: { steps: [{ setWeight: 10 }], trafficRouting: { plugins: {} } } },
};
const healthy: RolloutStatus = { updatedReplicas: 10, availableReplicas: 10, replicas: 10, stableRS: "a", currentPodHash: "a" };
const T0 = "2026-08-18T09:00:00Z";

describe("CalculateRolloutPhase", () => {
  it("follows upstream's order of checks", () => {
    expect(calculateRolloutPhase(canary, healthy)).toEqual({ phase: "Healthy", message: "" });
    const aborted = {
      ...healthy,
      conditions: [newCondition("Progressing", "False", "RolloutAborted", "Rollout aborted update to revision 3", T0)],
    };
    expect(calculateRolloutPhase(canary, aborted)).toEqual({
      phase: "Degraded",
      message: "RolloutAborted: Rollout aborted update to revision 3",
    });
    expect(calculateRolloutPhase({ ...canary, paused: true }, healthy)).toEqual({ phase: "Paused", message: "manually paused" });
    expect(calculateRolloutPhase(canary, { ...healthy, pauseConditions: [{ reason: "CanaryPauseStep", startTime: T0 }] })).toEqual({
      phase: "Paused",
      message: "CanaryPauseStep",
    });
    expect(calculateRolloutPhase({ ...canary, restartAt: T0 }, healthy)).toEqual({
      phase: "Progressing",
      message: "rollout is restarting",
    });
    expect(calculateRolloutPhase(canary, { ...healthy, updatedReplicas: 3 })).toEqual({
      phase: "Progressing",
      message: "more replicas need to be updated",
    });
    expect(calculateRolloutPhase(canary, { ...healthy, stableRS: "b" })).toEqual({
      phase: "Progressing",
      message: "waiting for all steps to complete",
    });
  });

  it("blue-green waits for the active cutover", () => {
    const bg: RolloutSpec = { replicas: 2, template: {}, strategy: { blueGreen: { activeService: "a" } } };
    const status = { updatedReplicas: 2, availableReplicas: 2, currentPodHash: "n", stableRS: "o", blueGreen: { activeSelector: "o" } };
    expect(calculateRolloutPhase(bg, status)).toEqual({ phase: "Progressing", message: "active service cutover pending" });
  });
});

describe("GetRolloutPhase", () => {
  const ro = (status: RolloutStatus, generation = 2): Rollout => ({
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "x", generation },
    spec: canary,
    status,
  });
  it("distrusts a status of an older generation and an unpause in flight", () => {
    expect(getRolloutPhase(ro({ ...healthy, phase: "Healthy", observedGeneration: "1" }))).toEqual({
      phase: "Progressing",
      message: "waiting for rollout spec update to be observed",
    });
    expect(
      getRolloutPhase(ro({ ...healthy, phase: "Paused", message: "CanaryPauseStep", observedGeneration: "2", controllerPause: true })),
    ).toEqual({
      phase: "Progressing",
      message: "waiting for rollout to unpause",
    });
    expect(getRolloutPhase(ro({ ...healthy, phase: "Healthy", observedGeneration: "2" }))).toEqual({ phase: "Healthy", message: "" });
  });
});

describe("SetRolloutCondition", () => {
  it("keeps a condition with the same status and reason, and lastTransitionTime when only the reason changes", () => {
    const status: RolloutStatus = {};
    expect(setCondition(status, newCondition("Progressing", "True", "NewReplicaSetCreated", "m", T0))).toBe(true);
    expect(setCondition(status, newCondition("Progressing", "True", "NewReplicaSetCreated", "other", "2026-08-18T09:05:00Z"))).toBe(false);
    expect(setCondition(status, newCondition("Progressing", "True", "ReplicaSetUpdated", "m", "2026-08-18T09:05:00Z"))).toBe(true);
    expect(status.conditions?.[0]).toMatchObject({
      reason: "ReplicaSetUpdated",
      lastTransitionTime: T0,
      lastUpdateTime: "2026-08-18T09:05:00Z",
    });
  });
});

describe("calculatePhase (rollout_info phase label)", () => {
  it("maps the Progressing reason", () => {
    const withReason = (reason: string) => ({ conditions: [newCondition("Progressing", "True", reason, "", T0)] });
    expect(calculateMetricsPhase(withReason("NewReplicaSetAvailable"))).toBe("Completed");
    expect(calculateMetricsPhase(withReason("RolloutPaused"))).toBe("Paused");
    expect(calculateMetricsPhase(withReason("RolloutAborted"))).toBe("Abort");
    expect(calculateMetricsPhase(withReason("ProgressDeadlineExceeded"))).toBe("Timeout");
    expect(calculateMetricsPhase(withReason("ReplicaSetUpdated"))).toBe("Progressing");
    expect(calculateMetricsPhase(undefined)).toBe("Progressing");
  });
});
