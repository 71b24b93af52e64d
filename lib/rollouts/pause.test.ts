import { describe, expect, it } from "vitest";
import { FIXTURE_NOW, loadRolloutFixture, loadRolloutFixtureWith } from "./fixtures.test-helper";
import { derivePause } from "./pause";

describe("derivePause", () => {
  it("timed pause started 2 min ago with 5m shows 180 s remaining", () => {
    expect(derivePause(loadRolloutFixture("timed-pause"), FIXTURE_NOW)).toEqual({
      reason: "CanaryPauseStep",
      startedAt: "2026-08-18T09:43:00Z",
      durationSeconds: 300,
      endsAt: "2026-08-18T09:48:00.000Z",
      remainingSeconds: 180,
      indefinite: false,
      manual: false,
    });
  });

  it("counts down to zero and never below", () => {
    const rollout = loadRolloutFixture("timed-pause");
    expect(derivePause(rollout, new Date("2026-08-18T09:47:59.200Z"))?.remainingSeconds).toBe(1);
    expect(derivePause(rollout, new Date("2026-08-18T09:48:00Z"))?.remainingSeconds).toBe(0);
    expect(derivePause(rollout, new Date("2026-08-18T10:30:00Z"))?.remainingSeconds).toBe(0);
  });

  it("reads an integer duration in seconds (600 → 5 min left after 5 min)", () => {
    expect(derivePause(loadRolloutFixture("max-traffic-weight-1000"), FIXTURE_NOW)).toMatchObject({
      durationSeconds: 600,
      endsAt: "2026-08-18T09:50:00.000Z",
      remainingSeconds: 300,
    });
  });

  it("pause: {} is indefinite with no countdown", () => {
    expect(derivePause(loadRolloutFixture("indefinite-pause"), FIXTURE_NOW)).toEqual({
      reason: "CanaryPauseStep",
      startedAt: "2026-08-18T09:41:02Z",
      durationSeconds: null,
      endsAt: null,
      remainingSeconds: null,
      indefinite: true,
      manual: false,
    });
  });

  it("an inconclusive analysis pause is indefinite", () => {
    expect(derivePause(loadRolloutFixture("inconclusive-analysis"), FIXTURE_NOW)).toMatchObject({
      reason: "InconclusiveAnalysisRun",
      indefinite: true,
      remainingSeconds: null,
    });
  });

  it("blue-green without auto-promotion waits for promotion", () => {
    expect(derivePause(loadRolloutFixture("blue-green"), FIXTURE_NOW)).toMatchObject({
      reason: "BlueGreenPause",
      startedAt: "2026-08-18T08:57:19Z",
      indefinite: true,
    });
  });

  it("blue-green autoPromotionSeconds counts down", () => {
    const rollout = loadRolloutFixtureWith("blue-green", (r) => {
      if (r.spec?.strategy?.blueGreen) {
        delete r.spec.strategy.blueGreen.autoPromotionEnabled;
        r.spec.strategy.blueGreen.autoPromotionSeconds = 3600;
      }
    });
    expect(derivePause(rollout, FIXTURE_NOW)).toMatchObject({ durationSeconds: 3600, remainingSeconds: 739 });
  });

  it("spec.paused alone is a manual, indefinite pause", () => {
    const rollout = loadRolloutFixtureWith("analysis-running", (r) => {
      if (r.spec) r.spec.paused = true;
    });
    expect(derivePause(rollout, FIXTURE_NOW)).toEqual({
      reason: "Manual",
      startedAt: null,
      durationSeconds: null,
      endsAt: null,
      remainingSeconds: null,
      indefinite: true,
      manual: true,
    });
  });

  it("flags manual on top of a timed step pause", () => {
    const rollout = loadRolloutFixtureWith("timed-pause", (r) => {
      if (r.spec) r.spec.paused = true;
    });
    expect(derivePause(rollout, FIXTURE_NOW)).toMatchObject({ manual: true, remainingSeconds: 180 });
  });

  it.each(["analysis-running", "fully-promoted", "aborted", "no-status", "unpause-pending"])("%s is not paused", (name) => {
    expect(derivePause(loadRolloutFixture(name), FIXTURE_NOW)).toBeNull();
  });
});
