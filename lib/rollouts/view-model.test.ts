import { describe, expect, it } from "vitest";
import { FIXTURE_NOW, listRolloutFixtureNames, loadRolloutFixture, loadRolloutFixtureWith } from "./fixtures.test-helper";
import { toRolloutView, type RolloutView } from "./view-model";

const viewOf = (name: string): RolloutView => toRolloutView(loadRolloutFixture(name), FIXTURE_NOW);

describe("toRolloutView", () => {
  it.each(listRolloutFixtureNames())("%s survives a JSON round trip unchanged", (name) => {
    const view = viewOf(name);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
  });

  it("builds the reference paused canary", () => {
    const view = viewOf("indefinite-pause");
    expect(view).toMatchObject({
      name: "checkout",
      namespace: "shop",
      uid: "3f6b2a8e-8c1d-4c55-9a57-2f0e6d1b7c41",
      revision: 3,
      generation: 7,
      observedGeneration: "7",
      resourceVersion: "918273",
      createdAt: "2026-07-02T14:03:11Z",
      strategy: "canary",
      phase: "Paused",
      message: "CanaryPauseStep",
      stepProgress: { current: 6, total: 8, index: 5, isComplete: false },
      currentStep: { kind: "pause", label: "Pause (until promoted)" },
      requestedWeight: { weight: 30, percent: 30, maxTrafficWeight: 100 },
      appliedWeights: { canaryPercent: 30, stablePercent: 70, verified: true },
      maxTrafficWeight: 100,
      pause: { reason: "CanaryPauseStep", indefinite: true },
      analysis: {
        currentStep: null,
        background: { name: "checkout-6c9f8b7d5d-3", status: "Running", message: null },
        prePromotion: null,
        postPromotion: null,
      },
      trafficRouters: [{ kind: "plugin", name: "argoproj-labs/gatewayAPI" }],
      pluginSteps: [],
      canary: { canaryService: "checkout-canary", stableService: "checkout-stable" },
      blueGreen: null,
      images: [{ container: "app", image: "ghcr.io/acme/checkout:1.4.0" }],
      replicas: { desired: 10, current: 13, updated: 3, ready: 13, available: 13 },
      aborted: false,
      abortedAt: null,
      promoteFull: false,
      stableRS: "7b4f9c6d88",
      currentPodHash: "6c9f8b7d5d",
    });
    expect(view.conditions).toHaveLength(5);
    expect(view.conditions[3]).toEqual({
      type: "Progressing",
      status: "Unknown",
      reason: "RolloutPaused",
      message: "Rollout is paused",
      lastTransitionTime: "2026-08-18T09:41:02Z",
      lastUpdateTime: "2026-08-18T09:41:02Z",
    });
    expect(view.attention).toEqual([{ code: "AwaitingPromotion", message: "Paused at step 6 of 8 until promoted" }]);
  });

  it("marks steps before the current one done and the rest pending", () => {
    expect(viewOf("indefinite-pause").steps.map((s) => s.state)).toEqual([
      "done",
      "done",
      "done",
      "done",
      "done",
      "current",
      "pending",
      "pending",
    ]);
    expect(viewOf("fully-promoted").steps.every((s) => s.state === "done")).toBe(true);
    expect(viewOf("no-status").steps.every((s) => s.state === "pending")).toBe(true);
  });

  it("a timed pause needs no attention and carries its countdown", () => {
    const view = viewOf("timed-pause");
    expect(view.pause).toMatchObject({ remainingSeconds: 180, endsAt: "2026-08-18T09:48:00.000Z" });
    expect(view.currentStep).toEqual({ kind: "pause", label: "Pause 5m" });
    expect(view.attention).toEqual([]);
  });

  it("shows the running step analysis", () => {
    const view = viewOf("analysis-running");
    expect(view.analysis.currentStep).toEqual({ name: "checkout-6c9f8b7d5d-3-4", status: "Running", message: null });
    expect(view.currentStep).toEqual({ kind: "analysis", label: "Analysis: success-rate" });
    expect(view.pause).toBeNull();
    expect(view.attention).toEqual([]);
  });

  it("aborted rollout: requested 0%, applied 0%, and says why", () => {
    const view = viewOf("aborted");
    expect(view).toMatchObject({
      phase: "Degraded",
      aborted: true,
      abortedAt: "2026-08-18T09:44:10Z",
      requestedWeight: { percent: 0 },
      appliedWeights: { canaryPercent: 0, stablePercent: 100 },
    });
    expect(view.attention).toEqual([
      { code: "Aborted", message: "RolloutAborted: Rollout aborted update to revision 3" },
      {
        code: "AnalysisFailed",
        message:
          "Background analysis checkout-6c9f8b7d5d-3 is Failed: " +
          'Metric "error-rate" assessed Failed due to failed (3) > failureLimit (2)',
      },
    ]);
  });

  it("fully promoted: Healthy, complete, requested 100%, nothing to do", () => {
    const view = viewOf("fully-promoted");
    expect(view).toMatchObject({
      phase: "Healthy",
      message: "",
      stepProgress: { current: null, isComplete: true },
      currentStep: null,
      requestedWeight: { percent: 100 },
      stableRS: "6c9f8b7d5d",
      currentPodHash: "6c9f8b7d5d",
    });
    expect(view.attention).toEqual([]);
  });

  it("blue-green: services, selectors, analysis and a wait for promotion", () => {
    const view = viewOf("blue-green");
    expect(view).toMatchObject({
      name: "payments",
      revision: 5,
      strategy: "blueGreen",
      phase: "Paused",
      steps: [],
      currentStep: null,
      requestedWeight: null,
      appliedWeights: null,
      trafficRouters: [],
      canary: null,
      blueGreen: {
        activeService: "payments-active",
        previewService: "payments-preview",
        activeSelector: "84c6b7f9d",
        previewSelector: "5f7d9c8b6",
        autoPromotionEnabled: false,
        autoPromotionSeconds: null,
      },
      analysis: { prePromotion: { name: "payments-5f7d9c8b6-5-pre", status: "Successful", message: null } },
      images: [
        { container: "api", image: "registry.example.com/billing/payments:2.8.1" },
        { container: "envoy", image: "envoyproxy/envoy:v1.34.1" },
      ],
    });
    expect(view.attention).toEqual([{ code: "AwaitingPromotion", message: "Paused until promoted" }]);
  });

  it("maxTrafficWeight 1000 with canary 300 shows 30% requested and applied", () => {
    const view = viewOf("max-traffic-weight-1000");
    expect(view.maxTrafficWeight).toBe(1000);
    expect(view.requestedWeight).toEqual({ weight: 300, maxTrafficWeight: 1000, percent: 30 });
    expect(view.appliedWeights).toMatchObject({ canaryPercent: 30, stablePercent: 70, verified: null });
    expect(view.steps.map((s) => s.label)).toEqual([
      "Set weight 0.5% (5/1000)",
      "Pause 1h30m",
      "Set weight 30% (300/1000)",
      "Pause 10m",
      "Set weight 75% (750/1000)",
      "Pause 30s",
    ]);
    expect(view.pause?.remainingSeconds).toBe(300);
    expect(view.attention).toEqual([]);
  });

  it("flags an unverified weight from a plugin router", () => {
    const view = viewOf("plugin-and-builtin-router");
    expect(view.trafficRouters.map((r) => `${r.kind}:${r.name}`)).toEqual([
      "builtin:Istio",
      "plugin:argoproj-labs/contour",
      "plugin:argoproj-labs/gatewayAPI",
    ]);
    expect(view.pluginSteps).toEqual(["acme/slack-notify"]);
    expect(view.currentStep?.kind).toBe("experiment");
    expect(view.attention).toEqual([{ code: "WeightNotVerified", message: "Router has not verified the canary weight (20%)" }]);
  });

  it("a Rollout with no status renders as waiting, without weights or pause", () => {
    const view = viewOf("no-status");
    expect(view).toMatchObject({
      phase: "Progressing",
      message: "waiting for rollout spec update to be observed",
      revision: null,
      observedGeneration: null,
      appliedWeights: null,
      pause: null,
      replicas: { desired: 10, current: 0, updated: 0, ready: 0, available: 0 },
      stableRS: null,
      currentPodHash: null,
      conditions: [],
      attention: [],
    });
  });

  it("unknown fields survive parse and don't break the view", () => {
    const view = viewOf("unknown-future-fields");
    expect(view).toMatchObject({
      name: "recommendations",
      phase: "Progressing",
      stepProgress: { current: 2, total: 3 },
      currentStep: { kind: "unknown", label: "Unknown step (setTrafficPolicy)" },
      requestedWeight: { weight: 25 },
      appliedWeights: { canaryPercent: 25, stablePercent: 75 },
      trafficRouters: [{ kind: "plugin", name: "acme/mesh" }],
    });
    expect(view.conditions.map((c) => c.type)).toContain("TrafficShadowing");
    expect(JSON.stringify(view)).not.toContain("measuredWeight");
  });

  it("an inconclusive analysis asks for a decision", () => {
    expect(viewOf("inconclusive-analysis").attention).toEqual([
      { code: "AwaitingPromotion", message: "Paused at step 5 of 8: analysis was inconclusive; promote or abort" },
      {
        code: "AnalysisInconclusive",
        message:
          "Step analysis checkout-6c9f8b7d5d-3-4 is Inconclusive: " +
          'Metric "success-rate" assessed Inconclusive due to inconclusive (1) > inconclusiveLimit (0)',
      },
    ]);
  });

  it("an unobserved generation reports Progressing with the new image", () => {
    const view = viewOf("generation-mismatch");
    expect(view).toMatchObject({
      phase: "Progressing",
      message: "waiting for rollout spec update to be observed",
      generation: 8,
      observedGeneration: "7",
      images: [{ container: "app", image: "ghcr.io/acme/checkout:1.5.0" }],
    });
  });

  it("right after promote the view stops showing a pause", () => {
    const view = viewOf("unpause-pending");
    expect(view).toMatchObject({ phase: "Progressing", message: "waiting for rollout to unpause", pause: null });
    expect(view.attention).toEqual([]);
  });

  it("a progress deadline is reported once, not also as Degraded", () => {
    const view = viewOf("progress-deadline-exceeded");
    expect(view.phase).toBe("Degraded");
    expect(view.trafficRouters).toEqual([]);
    expect(view.appliedWeights).toBeNull();
    expect(view.requestedWeight).toEqual({ weight: 25, maxTrafficWeight: 100, percent: 25 });
    expect(view.attention).toEqual([
      {
        code: "ProgressDeadlineExceeded",
        message: 'ReplicaSet "inventory-6d5c4b3a2" has timed out progressing.',
      },
    ]);
  });

  it("reports Degraded for other reasons, and analysis errors", () => {
    const rollout = loadRolloutFixtureWith("blue-green", (r) => {
      r.status = {
        ...r.status,
        phase: "Degraded",
        message: "InvalidSpec: The Rollout has an invalid spec",
        pauseConditions: [],
        controllerPause: false,
        blueGreen: { postPromotionAnalysisRunStatus: { name: "payments-post", status: "Error", message: "timeout" } },
      };
    });
    expect(toRolloutView(rollout, FIXTURE_NOW).attention).toEqual([
      { code: "Degraded", message: "InvalidSpec: The Rollout has an invalid spec" },
      { code: "AnalysisError", message: "Post-promotion analysis payments-post is Error: timeout" },
    ]);
  });

  it("reports a manual pause and promoteFull", () => {
    const rollout = loadRolloutFixtureWith("analysis-running", (r) => {
      if (r.spec) r.spec.paused = true;
      if (r.status) r.status.promoteFull = true;
    });
    const view = toRolloutView(rollout, FIXTURE_NOW);
    expect(view.promoteFull).toBe(true);
    expect(view.pause).toMatchObject({ reason: "Manual", manual: true });
    // Paused by spec.paused, it needs Resume, not a promotion.
    expect(view.attention[0]).toEqual({
      code: "NeedsResume",
      message: "Paused by spec.paused (pause, or kubectl argo rollouts pause); resume to continue",
    });
  });

  it("a Rollout without a strategy still renders", () => {
    const view = toRolloutView({ metadata: { name: "bare" } }, FIXTURE_NOW);
    expect(view).toMatchObject({
      name: "bare",
      namespace: null,
      strategy: "none",
      steps: [],
      requestedWeight: null,
      images: [],
      replicas: { desired: 1, current: 0 },
    });
  });
});

describe("toRolloutView: step plugins, duration and the CLI's step", () => {
  it("attaches each plugin step's latest stepPluginStatuses entry to that step", () => {
    const rollout = loadRolloutFixtureWith("indefinite-pause", (r) => {
      r.spec!.strategy!.canary!.steps = [{ setWeight: 20 }, { plugin: { name: "argoproj-labs/step-exec" } }, { pause: {} }];
      r.status!.currentStepIndex = 1;
      r.status!.canary = {
        ...r.status!.canary,
        stepPluginStatuses: [
          { index: 1, name: "argoproj-labs/step-exec", operation: "Run", phase: "Running", message: "" },
          { index: 1, name: "argoproj-labs/step-exec", operation: "Run", phase: "Failed", message: "exit status 2" },
        ],
      };
    });
    const view = toRolloutView(rollout, FIXTURE_NOW);
    expect(view.steps[1].plugin).toStrictEqual({ operation: "Run", phase: "Failed", message: "exit status 2" });
    expect(view.steps[0].plugin).toBeUndefined();
    expect(view.cliStep).toBe("1/3");
  });

  it("reports status.duration where the controller writes it, and nothing where it does not", () => {
    expect(viewOf("indefinite-pause").duration).toBeNull();
    const rollout = loadRolloutFixtureWith("aborted", (r) => {
      r.status!.duration = {
        rolloutStartedAt: "2026-08-18T09:00:00Z",
        finishedAt: "2026-08-18T09:20:00Z",
        completionStatus: "Aborted",
        totalManualPauseDurationSeconds: 60,
      };
    });
    expect(toRolloutView(rollout, FIXTURE_NOW).duration).toStrictEqual({
      startedAt: "2026-08-18T09:00:00Z",
      finishedAt: "2026-08-18T09:20:00Z",
      completionStatus: "Aborted",
      manualPauseSeconds: 60,
    });
  });
});
