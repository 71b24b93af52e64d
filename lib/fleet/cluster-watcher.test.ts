import { describe, expect, it } from "vitest";
import { FIXTURE_NOW, listRolloutFixtureNames, readRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { buildWatchedRollout } from "./cluster-watcher";

type Served = {
  metadata: { uid?: string; generation?: number; resourceVersion?: string };
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
};

const served = (name: string) => structuredClone(readRolloutFixture(name)) as Served;
const previousOf = (obj: Served) => buildWatchedRollout("c1", obj, FIXTURE_NOW).view;

describe("buildWatchedRollout after an update (the spec is read again only at a new uid or generation)", () => {
  // The fixtures of one uid and generation are states of the same Rollout: each is a status update of the others.
  const names = listRolloutFixtureNames();
  const updates = names.flatMap((from) =>
    names
      .filter((to) => {
        const [a, b] = [served(from).metadata, served(to).metadata];
        return a.uid === b.uid && a.generation === b.generation;
      })
      .map((to) => [from, to] as const),
  );

  it("has status updates to compare", () => {
    expect(updates.filter(([from, to]) => from !== to).length).toBeGreaterThan(10);
  });

  it.each(updates)("builds from %s then %s the view and projection a whole read builds", (from, to) => {
    const update = served(to);
    update.metadata.resourceVersion = "99999";
    expect(buildWatchedRollout("c1", update, FIXTURE_NOW, previousOf(served(from)))).toStrictEqual(
      buildWatchedRollout("c1", update, FIXTURE_NOW),
    );
  });

  it("reads the spec of a new generation, and reports it when it is malformed", () => {
    const previous = previousOf(served("analysis-running"));
    const changed = served("analysis-running");
    changed.metadata.generation = (changed.metadata.generation ?? 0) + 1;
    const canary = (changed.spec?.strategy as { canary: { steps: unknown[] } }).canary;
    canary.steps = [{ setWeight: 35 }, { pause: {} }];
    const { view } = buildWatchedRollout("c1", changed, FIXTURE_NOW, previous);
    expect(view.steps.map((step) => step.label)).toEqual(["Set weight 35%", "Pause (until promoted)"]);

    canary.steps = [{ setWeight: "a lot" }];
    expect(buildWatchedRollout("c1", changed, FIXTURE_NOW, previous).view.parseError).toMatch(/setWeight/);
  });

  it("reads the whole of another object under the same name, and of one whose last read failed", () => {
    const previous = previousOf(served("analysis-running"));
    const recreated = served("analysis-running");
    recreated.metadata.uid = "00000000-0000-4000-8000-000000000000";
    (recreated.spec?.strategy as { canary: { steps: unknown } }).canary.steps = "not a list";
    const failed = buildWatchedRollout("c1", recreated, FIXTURE_NOW, previous).view;
    expect(failed.parseError).toMatch(/steps/);
    expect(buildWatchedRollout("c1", recreated, FIXTURE_NOW, failed).view.parseError).toMatch(/steps/);
  });
});
