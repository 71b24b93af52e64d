import { describe, expect, it } from "vitest";
import type { FleetRollout } from "@/lib/rollouts/view-model";
import { FIXTURE_NOW, loadRolloutFixtureWith } from "./fixtures.test-helper";
import { deriveRevisionHistory, type StoredSample } from "./history";
import { sampleSignature, toRolloutSample } from "./recorded-sample";
import type { RolloutResource } from "./schema";
import { toRolloutView } from "./view-model";

function fleetRollout(rollout: RolloutResource): FleetRollout {
  const view = toRolloutView(rollout, FIXTURE_NOW);
  return {
    ...view,
    cluster: "prod",
    key: `prod/${view.namespace}/${view.name}`,
    parseError: null,
    lastChangedAt: FIXTURE_NOW.toISOString(),
  };
}

/** The recorder's rule: a new row only when the recorded signature changes. */
function record(states: readonly RolloutResource[]): StoredSample[] {
  const rows: StoredSample[] = [];
  let last: string | null = null;
  states.forEach((state, i) => {
    const sample = toRolloutSample(fleetRollout(state), new Date(FIXTURE_NOW.getTime() + i * 60_000));
    if (sampleSignature(sample) !== last) rows.push(sample);
    last = sampleSignature(sample);
  });
  return rows;
}

/** The blue-green fixture (revision 5 on the preview, paused for promotion) at earlier moments of its rollout. */
function blueGreenAt(revision: string, patch: (status: NonNullable<RolloutResource["status"]>) => void): RolloutResource {
  return loadRolloutFixtureWith("blue-green", (r) => {
    r.metadata.annotations = { ...r.metadata.annotations, "rollout.argoproj.io/revision": revision };
    patch(r.status!);
  });
}

describe("recorded samples of a blue-green Rollout", () => {
  it("record the new revision while it is in progress, before promotion, next to the promoted one", () => {
    const stable = blueGreenAt("4", (s) => {
      Object.assign(s, {
        phase: "Healthy",
        message: undefined,
        currentPodHash: s.stableRS,
        controllerPause: undefined,
        pauseConditions: undefined,
      });
      s.conditions = s.conditions?.filter((c) => c.type !== "Paused");
    });
    const previewScalingUp = blueGreenAt("5", (s) => {
      Object.assign(s, {
        phase: "Progressing",
        message: "more replicas need to be updated",
        controllerPause: undefined,
        pauseConditions: undefined,
      });
    });
    const awaitingPromotion = blueGreenAt("5", () => undefined);

    const samples = record([stable, previewScalingUp, awaitingPromotion]);
    expect(samples.map((s) => [s.revision, s.phase, s.paused])).toStrictEqual([
      ["4", "Healthy", false],
      ["5", "Progressing", false],
      ["5", "Paused", true],
    ]);
    const revisions = deriveRevisionHistory(samples, [], new Date(FIXTURE_NOW.getTime() + 10 * 60_000));
    expect(revisions.map((r) => [r.revision, r.outcome, r.endedAt === null])).toStrictEqual([
      ["5", "in-progress", true],
      ["4", "promoted", false],
    ]);
  });
});
