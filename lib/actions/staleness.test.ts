import { describe, expect, it } from "vitest";
import { loadRolloutFixture } from "@/lib/rollouts/fixtures.test-helper";
import { describeStaleness, observeRollout } from "./staleness";

describe("describeStaleness", () => {
  const current = observeRollout(loadRolloutFixture("indefinite-pause"));

  it("reads resourceVersion, revision and step index from the Rollout", () => {
    expect(current).toStrictEqual({ resourceVersion: "918273", revision: "3", stepIndex: 5 });
  });

  it("is null when what the user saw is what is there", () => {
    expect(describeStaleness({ resourceVersion: "918273", revision: "3", stepIndex: 5 }, current)).toBeNull();
    expect(describeStaleness({}, current)).toBeNull();
  });

  it("names every field that moved, steps 1-based", () => {
    expect(describeStaleness({ resourceVersion: "918000", revision: "3", stepIndex: 4 }, current)).toBe(
      "step 5 → 6, resourceVersion 918000 → 918273",
    );
    expect(describeStaleness({ revision: "2" }, current)).toBe("revision 2 → 3");
    expect(describeStaleness({ stepIndex: null }, current)).toBe("step none → 6");
    expect(describeStaleness({ stepIndex: 5 }, { ...current, stepIndex: null })).toBe("step 6 → none");
  });
});
