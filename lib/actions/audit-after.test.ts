import { describe, expect, it } from "vitest";
import { formatAuditAfter, formatAuditBefore } from "@/lib/audit/format-state";
import { loadRolloutFixture, loadRolloutFixtureWith } from "@/lib/rollouts/fixtures.test-helper";
import { deriveAuditAfter } from "./audit-after";

describe("deriveAuditAfter: the state an applied action left, as the audit log records it", () => {
  it("a Rollout paused at step 6 of 8 records as paused there with its canary weight", () => {
    expect(deriveAuditAfter(loadRolloutFixture("indefinite-pause"))).toStrictEqual({
      phase: "Paused",
      stepIndex: 5,
      paused: true,
      aborted: false,
      requestedPercent: 30,
      canaryPercent: 30,
      resourceVersion: "918273",
    });
  });

  it("promote's PATCH answer (pause conditions cleared) records as unpaused, waiting for the controller", () => {
    const answered = loadRolloutFixtureWith("indefinite-pause", (r) => {
      r.status!.pauseConditions = undefined;
      r.metadata.resourceVersion = "918274";
    });
    expect(deriveAuditAfter(answered)).toMatchObject({ phase: "Progressing", stepIndex: 5, paused: false, resourceVersion: "918274" });
  });

  it("abort's PATCH answer records as aborted with the requested weight back at 0", () => {
    const answered = loadRolloutFixtureWith("indefinite-pause", (r) => {
      r.status!.abort = true;
    });
    expect(deriveAuditAfter(answered)).toMatchObject({ aborted: true, requestedPercent: 0 });
  });
});

describe("the audit page's before and after states", () => {
  const before = {
    revision: 2,
    stepIndex: 1,
    totalSteps: 4,
    phase: "Paused",
    requestedPercent: 20,
    canaryPercent: 20,
    stablePercent: 80,
    resourceVersion: "7",
  };
  const after = {
    phase: "Progressing",
    stepIndex: 1,
    paused: false,
    aborted: false,
    requestedPercent: 20,
    canaryPercent: 20,
    resourceVersion: "8",
  };

  it("shows the step out of the before state's step count, or alone without it", () => {
    expect(formatAuditBefore(before)).toBe("rev 2 · step 2 of 4 · canary 20 % · Paused");
    expect(formatAuditAfter(after, before.totalSteps)).toBe("step 2 of 4 · canary 20 % · Progressing · unpaused");
    expect(formatAuditAfter({ ...after, aborted: true }, null)).toBe("step 2 · canary 20 % · Progressing · aborted");
  });
});
