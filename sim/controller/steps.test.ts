import { describe, expect, it } from "vitest";
import { desiredCanaryCounts as countsWith } from "./canary-replicas";
import { canaryStepString, currentSetWeight, currentStepOf, previousSetWeight } from "./steps";
import type { CanaryStep, Rollout, RolloutStatus } from "./types";

const STEPS: CanaryStep[] = [
  { setWeight: 10 },
  { pause: { duration: "5m" } },
  { setHeaderRoute: { name: "header-canary" } },
  { setWeight: 30 },
  { analysis: { templates: [{ templateName: "success-rate" }] } },
  { pause: {} },
  { setWeight: 60 },
  { pause: { duration: 600 } },
];

function ro(status: RolloutStatus, opts: { steps?: CanaryStep[]; replicas?: number; routed?: boolean; max?: number } = {}): Rollout {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "checkout", namespace: "shop" },
    spec: {
      replicas: opts.replicas ?? 10,
      template: {},
      strategy: {
        canary: {
          steps: opts.steps ?? STEPS,
          ...(opts.routed === false
            ? {}
            : { trafficRouting: { plugins: { "argoproj-labs/gatewayAPI": {} }, ...(opts.max ? { maxTrafficWeight: opts.max } : {}) } }),
        },
      },
    },
    status,
  };
}

const updating = { stableRS: "old", currentPodHash: "new" };

describe("GetCurrentSetWeight / GetCurrentCanaryStep", () => {
  it("uses the last setWeight at or before the current step", () => {
    expect(currentSetWeight(ro({ ...updating, currentStepIndex: 0 }))).toBe(10);
    expect(currentSetWeight(ro({ ...updating, currentStepIndex: 2 }))).toBe(10);
    expect(currentSetWeight(ro({ ...updating, currentStepIndex: 5 }))).toBe(30);
  });

  it("is max when all steps ran and 0 when aborted", () => {
    expect(currentSetWeight(ro({ ...updating, currentStepIndex: 8 }))).toBe(100);
    expect(currentSetWeight(ro({ ...updating, currentStepIndex: 8 }, { max: 1000 }))).toBe(1000);
    expect(currentSetWeight(ro({ ...updating, currentStepIndex: 5, abort: true }))).toBe(0);
  });

  it("has no current step without steps or after the last one", () => {
    expect(currentStepOf(ro({}, { steps: [] }))).toEqual({ step: null, index: null });
    expect(currentStepOf(ro({ currentStepIndex: 8 }))).toEqual({ step: null, index: 8 });
    expect(currentStepOf(ro({})).index).toBe(0);
  });

  it("previousSetWeight is what the router keeps until the canary is scaled for the step", () => {
    expect(previousSetWeight(ro({}), 3)).toBe(10);
    expect(previousSetWeight(ro({}), 0)).toBe(0);
    expect(previousSetWeight(ro({}), 8)).toBe(60);
  });
});

describe("CanaryStepString", () => {
  it("prints steps the way RolloutStepCompleted messages do", () => {
    expect(canaryStepString({ setWeight: 30 })).toBe("setWeight: 30");
    expect(canaryStepString({ pause: {} })).toBe("pause");
    expect(canaryStepString({ pause: { duration: "5m" } })).toBe("pause: 5m0s");
    expect(canaryStepString({ pause: { duration: 90 } })).toBe("pause: 1m30s");
    expect(canaryStepString({ analysis: {} })).toBe("analysis");
    expect(canaryStepString({ setCanaryScale: { replicas: 2 } })).toBe("setCanaryScale{replicas: 2}");
    expect(canaryStepString({ setHeaderRoute: { name: "x" } })).toBe("invalid");
  });
});

/** The routed counts need no ReplicaSets. */
const desiredCanaryCounts = (r: Rollout) => countsWith(r, undefined, undefined, []);

describe("replica counts with traffic routing", () => {
  it("traffic-routed: canary = ceil(replicas × weight / max), stable stays full", () => {
    expect(desiredCanaryCounts(ro({ ...updating, currentStepIndex: 3 }))).toEqual({ newRS: 3, stable: 10 });
    expect(desiredCanaryCounts(ro({ ...updating, currentStepIndex: 0 }, { replicas: 4 }))).toEqual({ newRS: 1, stable: 4 });
    expect(desiredCanaryCounts(ro({ ...updating, currentStepIndex: 0 }, { max: 1000, steps: [{ setWeight: 250 }] }))).toEqual({
      newRS: 3,
      stable: 10,
    });
  });

  it("full size when promoting fully, on the initial deploy and once promoted", () => {
    expect(desiredCanaryCounts(ro({ ...updating, currentStepIndex: 3, promoteFull: true })).newRS).toBe(10);
    expect(desiredCanaryCounts(ro({ currentPodHash: "new", currentStepIndex: 0 })).newRS).toBe(10);
    expect(desiredCanaryCounts(ro({ stableRS: "new", currentPodHash: "new" })).newRS).toBe(10);
  });

  it("setCanaryScale replicas wins until a later setCanaryScale, and is ignored on abort", () => {
    const steps: CanaryStep[] = [{ setWeight: 10 }, { setCanaryScale: { replicas: 2 } }, { setWeight: 40 }];
    expect(desiredCanaryCounts(ro({ ...updating, currentStepIndex: 2 }, { steps })).newRS).toBe(2);
    expect(desiredCanaryCounts(ro({ ...updating, currentStepIndex: 2, abort: true }, { steps })).newRS).toBe(0);
  });
});
