import { describe, expect, it } from "vitest";
import { loadRolloutFixture, loadRolloutFixtureWith } from "./fixtures.test-helper";
import { describeStep, deriveStepProgress, findCurrentStep } from "./steps";

describe("describeStep", () => {
  it("labels every step of the reference canary", () => {
    const steps = loadRolloutFixture("indefinite-pause").spec?.strategy?.canary?.steps ?? [];
    expect(steps.map((s) => describeStep(s))).toEqual([
      { kind: "setWeight", label: "Set weight 10%" },
      { kind: "pause", label: "Pause 5m" },
      { kind: "setHeaderRoute", label: "Header route header-canary: X-Canary = true" },
      { kind: "setWeight", label: "Set weight 30%" },
      { kind: "analysis", label: "Analysis: success-rate" },
      { kind: "pause", label: "Pause (until promoted)" },
      { kind: "setWeight", label: "Set weight 60%" },
      { kind: "pause", label: "Pause 10m" },
    ]);
  });

  it("labels plugin, scale, route and experiment steps", () => {
    const steps = loadRolloutFixture("plugin-and-builtin-router").spec?.strategy?.canary?.steps ?? [];
    expect(steps.map((s) => describeStep(s).label)).toEqual([
      "Plugin step acme/slack-notify",
      "Set canary scale 1 replica",
      "Header route beta-users: X-Beta starts with yes, User-Agent ~ .*Mobile.*",
      "Mirror route mirror-reads (25%): method = GET and path starts with /api/catalog",
      "Set weight 20%",
      "Experiment: canary-preview (canary), baseline (stable) for 10m with analysis latency-compare",
      "Canary scale matches traffic weight",
      "Remove mirror route mirror-reads",
      "Remove header route beta-users",
      "Plugin step acme/slack-notify",
      "Set weight 100%",
    ]);
    expect(describeStep(steps[0]).kind).toBe("plugin");
    expect(describeStep(steps[3]).kind).toBe("setMirrorRoute");
    expect(describeStep(steps[5]).kind).toBe("experiment");
  });

  it("shows setWeight as a percentage of maxTrafficWeight with the raw value", () => {
    expect(describeStep({ setWeight: 300 }, 1000)).toEqual({ kind: "setWeight", label: "Set weight 30% (300/1000)" });
  });

  it("formats int, plain-string and compound pause durations", () => {
    expect(describeStep({ pause: { duration: 600 } }).label).toBe("Pause 10m");
    expect(describeStep({ pause: { duration: "45" } }).label).toBe("Pause 45s");
    expect(describeStep({ pause: { duration: "1h30m" } }).label).toBe("Pause 1h30m");
    expect(describeStep({ pause: { duration: "soon" } }).label).toBe("Pause soon (invalid duration)");
  });

  it("labels analysis with several templates and setCanaryScale by weight", () => {
    const templates = [{ templateName: "error-rate" }, { templateName: "latency", clusterScope: true }];
    expect(describeStep({ analysis: { templates } }).label).toBe("Analysis: error-rate, latency");
    expect(describeStep({ setCanaryScale: { weight: 25 } }).label).toBe("Set canary scale 25%");
    expect(describeStep({ setCanaryScale: { replicas: 3 } }).label).toBe("Set canary scale 3 replicas");
  });

  it("describes a step kind it does not know by its keys", () => {
    const steps = loadRolloutFixture("unknown-future-fields").spec?.strategy?.canary?.steps ?? [];
    expect(describeStep(steps[1])).toEqual({ kind: "unknown", label: "Unknown step (setTrafficPolicy)" });
    expect(describeStep({})).toEqual({ kind: "unknown", label: "Unknown step (empty)" });
  });
});

describe("deriveStepProgress", () => {
  it.each([
    ["indefinite-pause", { current: 6, total: 8, index: 5, isComplete: false }],
    ["timed-pause", { current: 2, total: 8, index: 1, isComplete: false }],
    ["aborted", { current: 1, total: 8, index: 0, isComplete: false }],
    ["fully-promoted", { current: null, total: 8, index: 8, isComplete: true }],
    ["no-status", { current: null, total: 8, index: null, isComplete: false }],
    ["blue-green", { current: null, total: 0, index: null, isComplete: false }],
  ])("%s", (name, progress) => {
    expect(deriveStepProgress(loadRolloutFixture(name))).toEqual(progress);
  });

  it("counts an index past the end as complete", () => {
    const rollout = loadRolloutFixtureWith("indefinite-pause", (r) => {
      if (r.status) r.status.currentStepIndex = 12;
    });
    expect(deriveStepProgress(rollout)).toMatchObject({ current: null, isComplete: true });
  });
});

describe("findCurrentStep", () => {
  it("treats an unset index as step 0, like GetCurrentCanaryStep", () => {
    expect(findCurrentStep(loadRolloutFixture("no-status"))).toEqual({ step: { setWeight: 10 }, index: 0 });
  });

  it("has no current step once all steps ran, or for blue-green", () => {
    expect(findCurrentStep(loadRolloutFixture("fully-promoted"))).toBeNull();
    expect(findCurrentStep(loadRolloutFixture("blue-green"))).toBeNull();
  });
});
