import { describe, expect, it } from "vitest";
import type { ActionRolloutState } from "./action-rollout-state";
import { formatRestartAt, planActionRequests, planPromotePatches, type KubePatchRequest } from "./plan";

// The patch constants of pkg/kubectl-argo-rollouts/cmd/promote/promote.go, verbatim.
const unpausePatch = `{"spec":{"paused":false}}`;
const clearPauseConditionsPatch = `{"status":{"pauseConditions":null}}`;
const clearPauseConditionsAndControllerPausePatch = (i: number) =>
  `{"status":{"pauseConditions":null, "controllerPause":false, "currentStepIndex":${i}}}`;
const unpauseAndClearPauseConditionsPatch = `{"spec":{"paused":false},"status":{"pauseConditions":null}}`;
const promoteFullPatch = `{"status":{"promoteFull":true}}`;
const unpauseAndPromoteFullPatch = `{"spec":{"paused":false},"status":{"promoteFull":true}}`;
const clearPauseConditionsPatchWithStep = (i: number) => `{"status":{"pauseConditions":null, "currentStepIndex":${i}}}`;
const unpauseAndClearPauseConditionsPatchWithStep = (i: number) =>
  `{"spec":{"paused":false},"status":{"pauseConditions":null, "currentStepIndex":${i}}}`;

function statusPatch(body: string, unified: string): KubePatchRequest {
  return {
    kind: "patch",
    target: "status",
    patchType: "merge",
    body: JSON.parse(body),
    onNotFound: { target: "main", body: JSON.parse(unified) },
  };
}

function mainPatch(body: string): KubePatchRequest {
  return { kind: "patch", target: "main", patchType: "merge", body: JSON.parse(body) };
}

const eightSteps = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? { setWeight: 10 * (i + 1) } : { pause: {} }));

function canary(status: NonNullable<ActionRolloutState["status"]>, paused = false): ActionRolloutState {
  return { spec: { paused, strategy: { canary: { steps: eightSteps } } }, status };
}

function blueGreen(status: NonNullable<ActionRolloutState["status"]>, paused = false): ActionRolloutState {
  return { spec: { paused, strategy: { blueGreen: { activeService: "a", previewService: "p" } } }, status };
}

const NOW = new Date("2026-11-30T01:02:03.456Z");

describe("planPromotePatches (promote.go getPatches)", () => {
  it("case A: inconclusive step analysis paused by the controller clears controllerPause and advances", () => {
    const ro = canary({
      currentStepIndex: 5,
      controllerPause: true,
      pauseConditions: [{ reason: "InconclusiveAnalysisRun" }],
      canary: { currentStepAnalysisRunStatus: { status: "Inconclusive" } },
    });
    // Upstream leaves unifiedPatch at the plain unpause-and-clear patch in case A.
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsAndControllerPausePatch(6), unpauseAndClearPauseConditionsPatch),
    ]);
  });

  it("case A with spec.paused sends the status patch, then the spec patch", () => {
    const ro = canary(
      {
        currentStepIndex: 2,
        controllerPause: true,
        pauseConditions: [{ reason: "InconclusiveAnalysisRun" }],
        canary: { currentStepAnalysisRunStatus: { status: "Inconclusive" } },
      },
      true,
    );
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsAndControllerPausePatch(3), unpauseAndClearPauseConditionsPatch),
      mainPatch(unpausePatch),
    ]);
  });

  it("inconclusive without controllerPause falls back to case B", () => {
    const ro = canary({
      currentStepIndex: 5,
      controllerPause: false,
      pauseConditions: [{ reason: "InconclusiveAnalysisRun" }],
      canary: { currentStepAnalysisRunStatus: { status: "Inconclusive" } },
    });
    expect(planPromotePatches(ro, false)).toStrictEqual([statusPatch(clearPauseConditionsPatch, unpauseAndClearPauseConditionsPatch)]);
  });

  it("case B: a canary pause step only clears pause conditions (the controller advances)", () => {
    const ro = canary({ currentStepIndex: 5, controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep" }] });
    expect(planPromotePatches(ro, false)).toStrictEqual([statusPatch(clearPauseConditionsPatch, unpauseAndClearPauseConditionsPatch)]);
  });

  it("case B with spec.paused: status patch first, spec patch after", () => {
    const ro = canary({ currentStepIndex: 1, controllerPause: true, pauseConditions: [{ reason: "CanaryPauseStep" }] }, true);
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsPatch, unpauseAndClearPauseConditionsPatch),
      mainPatch(unpausePatch),
    ]);
  });

  it("case C: a canary without pause conditions skips the current step", () => {
    const ro = canary({ currentStepIndex: 3, canary: { currentStepAnalysisRunStatus: { status: "Running" } } });
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsPatchWithStep(4), unpauseAndClearPauseConditionsPatchWithStep(4)),
    ]);
  });

  it("case C with spec.paused (manual pause only) also unpauses after the status patch", () => {
    const ro = canary({ currentStepIndex: 3 }, true);
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsPatchWithStep(4), unpauseAndClearPauseConditionsPatchWithStep(4)),
      mainPatch(unpausePatch),
    ]);
  });

  it("case C with currentStepIndex unset reads it as 0 and writes 1", () => {
    const ro = canary({});
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsPatchWithStep(1), unpauseAndClearPauseConditionsPatchWithStep(1)),
    ]);
    expect(planPromotePatches(canary({ currentStepIndex: null }), false)).toStrictEqual(planPromotePatches(ro, false));
  });

  it("case C never writes past len(steps)", () => {
    const ro = canary({ currentStepIndex: 8 });
    expect(planPromotePatches(ro, false)).toStrictEqual([
      statusPatch(clearPauseConditionsPatchWithStep(8), unpauseAndClearPauseConditionsPatchWithStep(8)),
    ]);
  });

  it("a canary without steps and without pause conditions patches nothing, or only spec.paused", () => {
    const noSteps: ActionRolloutState = { spec: { strategy: { canary: {} } }, status: { currentStepIndex: 0 } };
    expect(planPromotePatches(noSteps, false)).toStrictEqual([]);
    expect(planPromotePatches({ ...noSteps, spec: { ...noSteps.spec, paused: true } }, false)).toStrictEqual([mainPatch(unpausePatch)]);
  });

  it("blue-green with a BlueGreenPause is case B", () => {
    const ro = blueGreen({ controllerPause: true, pauseConditions: [{ reason: "BlueGreenPause" }] });
    expect(planPromotePatches(ro, false)).toStrictEqual([statusPatch(clearPauseConditionsPatch, unpauseAndClearPauseConditionsPatch)]);
  });

  it("blue-green never gets case A or C: inconclusive analysis status alone patches nothing", () => {
    const ro = blueGreen({ currentStepIndex: 0, canary: { currentStepAnalysisRunStatus: { status: "Inconclusive" } } });
    expect(planPromotePatches(ro, false)).toStrictEqual([]);
    expect(planPromotePatches({ ...ro, spec: { ...ro.spec, paused: true } }, false)).toStrictEqual([mainPatch(unpausePatch)]);
  });

  it("an empty Rollout patches nothing", () => {
    expect(planPromotePatches({}, false)).toStrictEqual([]);
    expect(planPromotePatches({}, true)).toStrictEqual([]);
  });

  it("promote --full sets promoteFull when currentPodHash != stableRS", () => {
    const ro = canary({ currentPodHash: "def456", stableRS: "abc123", currentStepIndex: 5 });
    expect(planPromotePatches(ro, true)).toStrictEqual([statusPatch(promoteFullPatch, unpauseAndPromoteFullPatch)]);
  });

  it("promote --full on a manually paused Rollout also unpauses, after the status patch", () => {
    const ro = canary({ currentPodHash: "def456", stableRS: "abc123", pauseConditions: [{ reason: "CanaryPauseStep" }] }, true);
    expect(planPromotePatches(ro, true)).toStrictEqual([
      statusPatch(promoteFullPatch, unpauseAndPromoteFullPatch),
      mainPatch(unpausePatch),
    ]);
  });

  it("promote --full when already fully promoted sends no status patch", () => {
    expect(planPromotePatches(canary({ currentPodHash: "abc123", stableRS: "abc123" }), true)).toStrictEqual([]);
    expect(planPromotePatches(canary({ currentPodHash: "abc123", stableRS: "abc123" }, true), true)).toStrictEqual([
      mainPatch(unpausePatch),
    ]);
  });

  it("promote --full on blue-green is the same promoteFull patch", () => {
    const ro = blueGreen({ currentPodHash: "new", stableRS: "old", pauseConditions: [{ reason: "BlueGreenPause" }] });
    expect(planPromotePatches(ro, true)).toStrictEqual([statusPatch(promoteFullPatch, unpauseAndPromoteFullPatch)]);
  });

  it("keeps upstream's key order in the serialised bodies", () => {
    const [patch] = planPromotePatches(canary({ currentStepIndex: 3 }), false);
    expect(JSON.stringify(patch?.body)).toBe(`{"status":{"pauseConditions":null,"currentStepIndex":4}}`);
    expect(JSON.stringify(patch?.onNotFound?.body)).toBe(
      `{"spec":{"paused":false},"status":{"pauseConditions":null,"currentStepIndex":4}}`,
    );
  });
});

describe("planActionRequests", () => {
  const paused = canary({
    currentStepIndex: 5,
    controllerPause: true,
    pauseConditions: [{ reason: "CanaryPauseStep" }],
  });

  it("promote GETs first and re-plans from the GET's Rollout, not the caller's", () => {
    const plan = planActionRequests("promote", paused, NOW);
    expect(plan.needsGet).toBe(true);
    if (!plan.needsGet) return;
    expect(plan.requests).toStrictEqual([{ kind: "get" }, statusPatch(clearPauseConditionsPatch, unpauseAndClearPauseConditionsPatch)]);
    // Meanwhile the pause ended and an analysis step is running: upstream would skip that step instead.
    expect(plan.planAfterGet(canary({ currentStepIndex: 6 }))).toStrictEqual([
      statusPatch(clearPauseConditionsPatchWithStep(7), unpauseAndClearPauseConditionsPatchWithStep(7)),
    ]);
  });

  it("promote-full GETs first and plans the full promotion", () => {
    const plan = planActionRequests("promote-full", paused, NOW);
    expect(plan.needsGet).toBe(true);
    if (!plan.needsGet) return;
    expect(plan.planAfterGet(canary({ currentPodHash: "b", stableRS: "a" }, true))).toStrictEqual([
      statusPatch(promoteFullPatch, unpauseAndPromoteFullPatch),
      mainPatch(unpausePatch),
    ]);
  });

  it("abort patches /status with the same body on main as NotFound fallback (abort.go)", () => {
    expect(planActionRequests("abort", paused, NOW)).toStrictEqual({
      action: "abort",
      needsGet: false,
      requests: [statusPatch(`{"status":{"abort":true}}`, `{"status":{"abort":true}}`)],
    });
  });

  it("retry patches /status abort:false with the same fallback (retry.go)", () => {
    expect(planActionRequests("retry", paused, NOW)).toStrictEqual({
      action: "retry",
      needsGet: false,
      requests: [statusPatch(`{"status":{"abort":false}}`, `{"status":{"abort":false}}`)],
    });
  });

  it("pause patches spec.paused=true on the main resource (pause.go)", () => {
    expect(planActionRequests("pause", paused, NOW)).toStrictEqual({
      action: "pause",
      needsGet: false,
      requests: [mainPatch(`{"spec":{"paused":true}}`)],
    });
  });

  it("resume only clears spec.paused and never touches status", () => {
    expect(planActionRequests("resume", paused, NOW)).toStrictEqual({
      action: "resume",
      needsGet: false,
      requests: [mainPatch(unpausePatch)],
    });
  });

  it("restart sets spec.restartAt to now in RFC 3339 UTC, whole seconds (restart.go)", () => {
    expect(planActionRequests("restart", paused, NOW)).toStrictEqual({
      action: "restart",
      needsGet: false,
      requests: [mainPatch(`{"spec":{"restartAt":"2026-11-30T01:02:03Z"}}`)],
    });
  });
});

describe("formatRestartAt", () => {
  it("drops milliseconds and always prints UTC", () => {
    expect(formatRestartAt(new Date("2026-01-02T23:59:59.999+02:00"))).toBe("2026-01-02T21:59:59Z");
    expect(formatRestartAt(new Date(Date.UTC(2026, 10, 30, 1, 2, 3)))).toBe("2026-11-30T01:02:03Z");
  });
});
