import { describe, expect, it } from "vitest";
import { loadRolloutFixture, loadRolloutFixtureWith } from "@/lib/rollouts/fixtures.test-helper";
import { fingerprintRollout } from "./rollout-fingerprint";

describe("fingerprintRollout", () => {
  const base = fingerprintRollout(loadRolloutFixture("indefinite-pause"));

  it("ignores what does not change an action's outcome", () => {
    const churn = loadRolloutFixtureWith("indefinite-pause", (r) => {
      r.metadata.resourceVersion = "999999";
      if (r.status) {
        r.status.readyReplicas = 3;
        r.status.conditions = [];
      }
    });
    expect(fingerprintRollout(churn)).toBe(base);
  });

  it("changes with anything promote, abort, pause or the confirmation text depends on", () => {
    const edits: Array<(r: ReturnType<typeof loadRolloutFixture>) => void> = [
      (r) => void (r.status && (r.status.pauseConditions = [])),
      (r) => void (r.status && (r.status.controllerPause = false)),
      (r) => void (r.status && (r.status.currentStepIndex = 6)),
      (r) => void (r.status && (r.status.abort = true)),
      (r) => void (r.spec && (r.spec.paused = true)),
      (r) => void (r.metadata.annotations = { "rollout.argoproj.io/revision": "4" }),
      (r) => void (r.metadata.generation = 8),
      (r) => void (r.status?.canary?.weights && (r.status.canary.weights.canary.weight = 60)),
    ];
    for (const edit of edits) expect(fingerprintRollout(loadRolloutFixtureWith("indefinite-pause", edit))).not.toBe(base);
  });
});
