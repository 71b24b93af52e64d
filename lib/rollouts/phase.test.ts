import { describe, expect, it } from "vitest";
import { loadRolloutFixture, loadRolloutFixtureWith } from "./fixtures.test-helper";
import { deriveRolloutPhase } from "./phase";
import type { RolloutResource } from "./schema";

describe("deriveRolloutPhase on fixtures", () => {
  it.each([
    ["indefinite-pause", "Paused", "CanaryPauseStep"],
    ["timed-pause", "Paused", "CanaryPauseStep"],
    ["analysis-running", "Progressing", "more replicas need to be updated"],
    ["aborted", "Degraded", "RolloutAborted: Rollout aborted update to revision 3"],
    ["fully-promoted", "Healthy", ""],
    ["blue-green", "Paused", "BlueGreenPause"],
    ["max-traffic-weight-1000", "Paused", "CanaryPauseStep"],
    ["plugin-and-builtin-router", "Progressing", "more replicas need to be updated"],
    ["inconclusive-analysis", "Paused", "InconclusiveAnalysisRun"],
    ["unknown-future-fields", "Progressing", "waiting for all steps to complete"],
    ["progress-deadline-exceeded", "Degraded", 'ProgressDeadlineExceeded: ReplicaSet "inventory-6d5c4b3a2" has timed out progressing.'],
  ])("%s → %s", (name, phase, message) => {
    expect(deriveRolloutPhase(loadRolloutFixture(name))).toEqual({ phase, message });
  });

  it("ignores a stale Healthy phase while the new generation is unobserved", () => {
    const rollout = loadRolloutFixture("generation-mismatch");
    expect(rollout.status?.phase).toBe("Paused");
    expect(deriveRolloutPhase(rollout)).toEqual({
      phase: "Progressing",
      message: "waiting for rollout spec update to be observed",
    });
  });

  it("shows 'waiting for rollout to unpause' right after a promote, not the stale Paused", () => {
    expect(deriveRolloutPhase(loadRolloutFixture("unpause-pending"))).toEqual({
      phase: "Progressing",
      message: "waiting for rollout to unpause",
    });
  });

  it("treats a Rollout the controller never saw as waiting to be observed", () => {
    expect(deriveRolloutPhase(loadRolloutFixture("no-status"))).toEqual({
      phase: "Progressing",
      message: "waiting for rollout spec update to be observed",
    });
  });
});

describe("deriveRolloutPhase generation rules", () => {
  const withObserved = (observedGeneration: string, generation: number): RolloutResource => ({
    metadata: { name: "x", generation },
    status: { observedGeneration, phase: "Healthy" },
  });

  it("compares observedGeneration as a number held in a string", () => {
    expect(deriveRolloutPhase(withObserved("7", 7)).phase).toBe("Healthy");
    expect(deriveRolloutPhase(withObserved("6", 7)).phase).toBe("Progressing");
  });

  it("treats an observedGeneration ahead of metadata.generation as observed, as upstream", () => {
    expect(deriveRolloutPhase(withObserved("8", 7)).phase).toBe("Healthy");
  });

  it("treats a pre-v0.10 hash observedGeneration as observed", () => {
    expect(deriveRolloutPhase(withObserved("7d9c5f8b6", 3)).phase).toBe("Healthy");
  });

  it("unpausing only applies when pauseConditions is empty", () => {
    const absent = loadRolloutFixtureWith("unpause-pending", (r) => {
      delete r.status?.pauseConditions;
    });
    expect(deriveRolloutPhase(absent).message).toBe("waiting for rollout to unpause");
    expect(deriveRolloutPhase(loadRolloutFixture("indefinite-pause")).phase).toBe("Paused");
  });
});

// Pre-1.0 controllers did not write status.phase; CalculateRolloutPhase fills in.
describe("deriveRolloutPhase fallback when status.phase is absent", () => {
  const withoutPhase = (name: string, patch: (r: RolloutResource) => void = () => {}) =>
    loadRolloutFixtureWith(name, (r) => {
      delete r.status?.phase;
      delete r.status?.message;
      patch(r);
    });

  it("reports an aborted rollout as Degraded from its Progressing condition", () => {
    expect(deriveRolloutPhase(withoutPhase("aborted"))).toEqual({
      phase: "Degraded",
      message: "RolloutAborted: Rollout aborted update to revision 3",
    });
  });

  it("reports InvalidSpec before anything else", () => {
    const rollout = withoutPhase("indefinite-pause", (r) => {
      r.status?.conditions?.push({ type: "InvalidSpec", status: "True", reason: "InvalidSpec", message: "bad steps" });
    });
    expect(deriveRolloutPhase(rollout)).toEqual({ phase: "Degraded", message: "InvalidSpec: bad steps" });
  });

  it("reports a manual pause", () => {
    const rollout = withoutPhase("analysis-running", (r) => {
      if (r.spec) r.spec.paused = true;
    });
    expect(deriveRolloutPhase(rollout)).toEqual({ phase: "Paused", message: "manually paused" });
  });

  it("uses the first pause condition reason", () => {
    expect(deriveRolloutPhase(withoutPhase("inconclusive-analysis"))).toEqual({
      phase: "Paused",
      message: "InconclusiveAnalysisRun",
    });
  });

  it("reports a pending restart", () => {
    const rollout = withoutPhase("fully-promoted", (r) => {
      if (r.spec) r.spec.restartAt = "2026-08-18T09:44:00Z";
    });
    expect(deriveRolloutPhase(rollout)).toEqual({ phase: "Progressing", message: "rollout is restarting" });
    const restarted = withoutPhase("fully-promoted", (r) => {
      if (r.spec) r.spec.restartAt = "2026-08-18T09:44:00Z";
      if (r.status) r.status.restartedAt = "2026-08-18T09:44:00.000Z";
    });
    expect(deriveRolloutPhase(restarted).phase).toBe("Healthy");
  });

  it("reports replicas still updating, then becoming available", () => {
    expect(deriveRolloutPhase(withoutPhase("analysis-running")).message).toBe("more replicas need to be updated");
    const unavailable = withoutPhase("fully-promoted", (r) => {
      if (r.status) r.status.availableReplicas = 8;
    });
    expect(deriveRolloutPhase(unavailable).message).toBe("updated replicas are still becoming available");
  });

  it("reports old replicas pending termination only for basic canary", () => {
    const basic = withoutPhase("progress-deadline-exceeded", (r) => {
      r.status = { ...r.status, conditions: [], updatedReplicas: 4, availableReplicas: 4, replicas: 5 };
    });
    expect(deriveRolloutPhase(basic).message).toBe("old replicas are pending termination");
    const routed = withoutPhase("fully-promoted", (r) => {
      if (r.status) r.status.replicas = 13;
    });
    expect(deriveRolloutPhase(routed).phase).toBe("Healthy");
  });

  it("reports a canary with steps left as waiting for all steps", () => {
    const rollout = withoutPhase("fully-promoted", (r) => {
      if (r.status) r.status.stableRS = "7b4f9c6d88";
    });
    expect(deriveRolloutPhase(rollout).message).toBe("waiting for all steps to complete");
  });

  it("reports a fully promoted canary as Healthy", () => {
    expect(deriveRolloutPhase(withoutPhase("fully-promoted"))).toEqual({ phase: "Healthy", message: "" });
  });

  it("walks the blue-green cutover states", () => {
    const promoted = (patch: (r: RolloutResource) => void) =>
      withoutPhase("blue-green", (r) => {
        r.status = { ...r.status, pauseConditions: [], controllerPause: false };
        patch(r);
      });
    expect(deriveRolloutPhase(promoted(() => {})).message).toBe("active service cutover pending");

    const switched = promoted((r) => {
      if (r.status?.blueGreen) r.status.blueGreen.activeSelector = "5f7d9c8b6";
    });
    expect(deriveRolloutPhase(switched).message).toBe("waiting for analysis to complete");

    const analysed = promoted((r) => {
      if (r.status?.blueGreen) {
        r.status.blueGreen.activeSelector = "5f7d9c8b6";
        r.status.blueGreen.postPromotionAnalysisRunStatus = { name: "post", status: "Successful" };
      }
    });
    expect(deriveRolloutPhase(analysed).message).toBe("waiting for post-promotion verification to complete");

    const stable = promoted((r) => {
      if (r.status?.blueGreen) r.status.blueGreen.activeSelector = "5f7d9c8b6";
      if (r.status) r.status.stableRS = "5f7d9c8b6";
    });
    expect(deriveRolloutPhase(stable)).toEqual({ phase: "Healthy", message: "" });
  });

  it("falls back when status.phase is a value this dashboard does not know", () => {
    const rollout = loadRolloutFixtureWith("fully-promoted", (r) => {
      if (r.status) r.status.phase = "Hibernating";
    });
    expect(deriveRolloutPhase(rollout)).toEqual({ phase: "Healthy", message: "" });
  });
});
