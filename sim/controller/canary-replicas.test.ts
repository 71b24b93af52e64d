import { describe, expect, it } from "vitest";
import {
  approximateWeightedCanaryStableReplicaCounts,
  atDesiredReplicaCountsForCanary,
  calculateReplicaCountsForBasicCanary,
  calculateReplicaCountsForTrafficRoutedCanary,
  getReplicasForScaleDown,
  maxSurgeOf,
  maxUnavailableOf,
} from "./canary-replicas";
import type { CanaryStep, ReplicaSet, Rollout } from "./types";

/**
 * The expected numbers are upstream's own, from v1.9.1 `utils/replicaset/canary_test.go` (test names kept), so each
 * case checks this port against the real controller's arithmetic.
 */

type IntOrString = number | string;

interface RolloutOpts {
  replicas: number;
  setWeight?: number;
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  setCanaryScale?: CanaryStep["setCanaryScale"];
  routed?: boolean;
  promoteFull?: boolean;
  abort?: boolean;
  abortScaleDownDelaySeconds?: number;
  minPodsPerReplicaSet?: number;
  currentPodHash?: string;
  stableRS?: string;
}

/** Upstream's `newRollout`: one step (setWeight and setCanaryScale), current hash "canary", stable "stable". */
function rollout(o: RolloutOpts): Rollout {
  return {
    apiVersion: "argoproj.io/v1alpha1",
    kind: "Rollout",
    metadata: { name: "foo", namespace: "default" },
    spec: {
      replicas: o.replicas,
      template: {},
      strategy: {
        canary: {
          maxSurge: o.maxSurge ?? 0,
          maxUnavailable: o.maxUnavailable ?? 0,
          steps: [{ setWeight: o.setWeight ?? 0, ...(o.setCanaryScale ? { setCanaryScale: o.setCanaryScale } : {}) }],
          ...(o.routed ? { trafficRouting: {} } : {}),
          ...(o.abortScaleDownDelaySeconds !== undefined ? { abortScaleDownDelaySeconds: o.abortScaleDownDelaySeconds } : {}),
          ...(o.minPodsPerReplicaSet !== undefined ? { minPodsPerReplicaSet: o.minPodsPerReplicaSet } : {}),
        },
      },
    },
    status: {
      currentPodHash: o.currentPodHash ?? "canary",
      stableRS: o.stableRS ?? "stable",
      ...(o.promoteFull ? { promoteFull: true } : {}),
      ...(o.abort ? { abort: true } : {}),
    },
  };
}

/** Upstream's `newRS`: named after its pod-template-hash label. */
function rs(hash: string, spec: number, available: number, created?: number): ReplicaSet {
  return {
    apiVersion: "apps/v1",
    kind: "ReplicaSet",
    metadata: { name: hash, labels: { "rollouts-pod-template-hash": hash } },
    spec: { replicas: spec, selector: { matchLabels: {} }, template: {} },
    status: { availableReplicas: available, ...(created !== undefined ? { replicas: created } : {}) },
  };
}

interface CountsCase extends RolloutOpts {
  name: string;
  stable: [spec: number, available: number];
  canary: [spec: number, available: number];
  expected: { stable: number; canary: number };
  older?: ReplicaSet;
}

// TestCalculateReplicaCountsForCanary, every case.
const COUNTS_CASES: CountsCase[] = [
  {
    name: "Do not add extra RSs in scaleDownCount when .Spec.Replica < AvailableReplicas",
    replicas: 10,
    setWeight: 100,
    maxSurge: 3,
    maxUnavailable: 0,
    stable: [7, 8],
    canary: [6, 3],
    expected: { stable: 7, canary: 6 },
  },
  {
    name: "Use max surge int to scale up canary",
    replicas: 10,
    setWeight: 20,
    maxSurge: 2,
    maxUnavailable: 0,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 10, canary: 2 },
  },
  {
    name: "Use max surge percentage to scale up canary",
    replicas: 10,
    setWeight: 20,
    maxSurge: "20%",
    maxUnavailable: 0,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 10, canary: 2 },
  },
  {
    name: "Scale down extra stable replicas",
    replicas: 10,
    setWeight: 20,
    maxSurge: "20%",
    maxUnavailable: 0,
    stable: [10, 10],
    canary: [2, 2],
    expected: { stable: 8, canary: 2 },
  },
  {
    name: "Do not go past max surge",
    replicas: 10,
    setWeight: 30,
    maxSurge: 2,
    maxUnavailable: 0,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 10, canary: 2 },
  },
  {
    name: "Use max unavailable int to scale down stableRS",
    replicas: 10,
    setWeight: 20,
    maxSurge: 0,
    maxUnavailable: 2,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 8, canary: 0 },
  },
  {
    name: "Use max surge percentage to scale down stableRS",
    replicas: 10,
    setWeight: 20,
    maxSurge: 0,
    maxUnavailable: "20%",
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 8, canary: 0 },
  },
  {
    name: "Do not go past max unavailable",
    replicas: 10,
    setWeight: 30,
    maxSurge: 0,
    maxUnavailable: 2,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 8, canary: 0 },
  },
  {
    name: "Use Max Surge and Max Unavailable",
    replicas: 10,
    setWeight: 50,
    maxSurge: 2,
    maxUnavailable: 1,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 9, canary: 2 },
  },
  {
    name: "Scale canaryRS to zero on setWeight of 0%",
    replicas: 10,
    setWeight: 0,
    maxSurge: 1,
    maxUnavailable: 1,
    stable: [10, 10],
    canary: [1, 1],
    expected: { stable: 10, canary: 0 },
  },
  {
    name: "Scale stable to zero on setWeight of 100%",
    replicas: 10,
    setWeight: 100,
    maxSurge: 1,
    maxUnavailable: 1,
    stable: [1, 1],
    canary: [10, 10],
    expected: { stable: 0, canary: 10 },
  },
  {
    name: "Do not scale canaryRS down to zero on non-zero weight",
    replicas: 1,
    setWeight: 20,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [1, 1],
    canary: [0, 0],
    expected: { stable: 1, canary: 1 },
  },
  {
    name: "Do not scale canaryRS down to zero on non-100 weight",
    replicas: 1,
    setWeight: 90,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [1, 1],
    canary: [0, 0],
    expected: { stable: 1, canary: 1 },
  },
  {
    name: "Scale canaryRS to zero on <50 weight without surge",
    replicas: 1,
    setWeight: 49,
    maxSurge: 0,
    maxUnavailable: 1,
    stable: [1, 1],
    canary: [0, 0],
    expected: { stable: 1, canary: 0 },
  },
  {
    name: "Scale stableRS down to zero on >=50 weight without surge",
    replicas: 1,
    setWeight: 51,
    maxSurge: 0,
    maxUnavailable: 1,
    stable: [1, 1],
    canary: [0, 0],
    expected: { stable: 0, canary: 0 },
  },
  {
    name: "Scale canaryRS to one on >=50 weight without surge and stable replicas",
    replicas: 1,
    setWeight: 51,
    maxSurge: 0,
    maxUnavailable: 1,
    stable: [0, 0],
    canary: [0, 0],
    expected: { stable: 0, canary: 1 },
  },
  {
    name: "Scale up Stable before canaryRS",
    replicas: 10,
    setWeight: 30,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [1, 1],
    canary: [0, 0],
    older: rs("older", 3, 3),
    expected: { stable: 7, canary: 1 },
  },
  {
    name: "Scale down canaryRS and stable",
    replicas: 10,
    setWeight: 30,
    maxSurge: 0,
    maxUnavailable: 3,
    stable: [8, 5],
    canary: [4, 4],
    expected: { stable: 7, canary: 3 },
  },
  {
    name: "Scale down stable and canary available",
    replicas: 10,
    setWeight: 100,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [10, 2],
    canary: [10, 8],
    expected: { stable: 2, canary: 9 },
  },
  {
    name: "Do not scale down canaryRS or stable when older RS count >= scaleDownCount",
    replicas: 10,
    setWeight: 30,
    maxSurge: 0,
    maxUnavailable: 1,
    stable: [8, 6],
    canary: [4, 2],
    older: rs("older", 3, 3),
    expected: { stable: 8, canary: 4 },
  },
  {
    name: "Do not round past maxSurge with uneven setWeight divisor",
    replicas: 10,
    setWeight: 5,
    maxSurge: 0,
    maxUnavailable: 1,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 9, canary: 0 },
  },
  {
    name: "Do not round past maxSurge with uneven setWeight divisor (part 2)",
    replicas: 10,
    setWeight: 5,
    maxSurge: 0,
    maxUnavailable: 1,
    stable: [9, 9],
    canary: [0, 0],
    expected: { stable: 9, canary: 1 },
  },
  {
    name: "Use maxUnavailable of 1 when percentage of maxUnavailable and maxSurge result in 0 replicas",
    replicas: 10,
    setWeight: 10,
    maxSurge: "0%",
    maxUnavailable: "0%",
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 9, canary: 0 },
  },
  {
    name: "For canary replicas, use setCanaryScale.replicas when specified along with trafficRouting (and ignore setWeight)",
    replicas: 1,
    setWeight: 100,
    setCanaryScale: { replicas: 9 },
    routed: true,
    stable: [1, 1],
    canary: [0, 0],
    expected: { stable: 1, canary: 9 },
  },
  {
    name: "Use setCanaryScale.weight for canary replicas when specified with trafficRouting (and ignore setWeight)",
    replicas: 4,
    setWeight: 100,
    setCanaryScale: { weight: 200 },
    routed: true,
    stable: [4, 4],
    canary: [0, 0],
    expected: { stable: 4, canary: 8 },
  },
  {
    name: "Ignore setCanaryScale replicas/weight when matchTrafficWeight is true",
    replicas: 10,
    setWeight: 20,
    maxSurge: "20%",
    maxUnavailable: 0,
    setCanaryScale: { replicas: 9, weight: 100, matchTrafficWeight: true },
    routed: true,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 10, canary: 2 },
  },
  {
    name: "Ignore setCanaryScale when trafficRouting is missing and use setWeight for replicas",
    replicas: 10,
    setWeight: 20,
    maxSurge: "20%",
    maxUnavailable: 0,
    setCanaryScale: { replicas: 9, weight: 100 },
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 10, canary: 2 },
  },
  {
    name: "honor maxSurge during scale up when stableRS unavailable",
    replicas: 4,
    setWeight: 100,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [4, 1],
    canary: [0, 0],
    expected: { stable: 4, canary: 1 },
  },
  {
    name: "scale down to maxunavailable without exceeding maxSurge",
    replicas: 3,
    setWeight: 99,
    maxSurge: 0,
    maxUnavailable: 2,
    stable: [3, 3],
    canary: [0, 0],
    expected: { stable: 1, canary: 0 },
  },
  {
    name: "scale down to maxunavailable without exceeding maxSurge (part 2)",
    replicas: 3,
    setWeight: 99,
    maxSurge: 0,
    maxUnavailable: 2,
    stable: [1, 1],
    canary: [0, 0],
    expected: { stable: 1, canary: 2 },
  },
  {
    name: "honor maxUnavailable during scale down stableRS unavailable",
    replicas: 4,
    setWeight: 100,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [4, 1],
    canary: [1, 1],
    expected: { stable: 3, canary: 1 },
  },
  {
    name: "honor maxUnavailable when aborting or reducing weight part 1",
    replicas: 4,
    setWeight: 0,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [0, 0],
    canary: [4, 4],
    expected: { stable: 1, canary: 4 },
  },
  {
    name: "honor maxUnavailable when aborting or reducing weight part 2",
    replicas: 4,
    setWeight: 0,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [1, 0],
    canary: [4, 4],
    expected: { stable: 1, canary: 4 },
  },
  {
    name: "honor maxUnavailable when aborting or reducing weight part 3",
    replicas: 4,
    setWeight: 0,
    maxSurge: 1,
    maxUnavailable: 0,
    stable: [1, 1],
    canary: [4, 4],
    expected: { stable: 1, canary: 3 },
  },
  {
    name: "promote full does not consider weight",
    promoteFull: true,
    replicas: 4,
    setWeight: 1,
    maxSurge: 4,
    maxUnavailable: 4,
    stable: [4, 4],
    canary: [0, 0],
    expected: { stable: 0, canary: 4 },
  },
  {
    name: "promote full still honors maxSurge/maxUnavailable",
    promoteFull: true,
    replicas: 4,
    setWeight: 1,
    maxSurge: 3,
    maxUnavailable: 0,
    stable: [4, 4],
    canary: [0, 0],
    expected: { stable: 4, canary: 3 },
  },
  {
    name: "aborted with abortScaleDownDelaySeconds:0 and setCanaryScale",
    replicas: 1,
    setCanaryScale: { replicas: 1 },
    routed: true,
    abortScaleDownDelaySeconds: 0,
    abort: true,
    stable: [1, 1],
    canary: [1, 1],
    expected: { stable: 1, canary: 1 },
  },
  {
    name: "aborted with abortScaleDownDelaySeconds>0 and setCanaryScale",
    replicas: 1,
    setCanaryScale: { replicas: 1 },
    routed: true,
    abortScaleDownDelaySeconds: 30,
    abort: true,
    stable: [1, 1],
    canary: [1, 1],
    expected: { stable: 1, canary: 0 },
  },
  {
    name: "Honor MinPodsPerReplicaSet when using trafficRouting and starting canary",
    replicas: 10,
    setWeight: 5,
    routed: true,
    minPodsPerReplicaSet: 2,
    stable: [10, 10],
    canary: [0, 0],
    expected: { stable: 10, canary: 2 },
  },
];

describe("TestCalculateReplicaCountsForCanary (upstream's table)", () => {
  for (const c of COUNTS_CASES) {
    it(c.name, () => {
      const ro = rollout(c);
      const counts = c.routed
        ? calculateReplicaCountsForTrafficRoutedCanary(ro)
        : calculateReplicaCountsForBasicCanary(ro, rs("canary", ...c.canary), rs("stable", ...c.stable), c.older ? [c.older] : []);
      expect({ canary: counts.newRS, stable: counts.stable }).toEqual(c.expected);
    });
  }
});

// TestApproximateWeightedNewStableReplicaCounts, every case: [replicas, weight, maxSurge, canary, stable] (maxWeight 100).
const APPROXIMATE_CASES: Array<[number, number, number, number, number]> = [
  [0, 0, 0, 0, 0],
  [0, 50, 0, 0, 0],
  [0, 100, 0, 0, 0],
  [0, 0, 1, 0, 0],
  [0, 50, 1, 0, 0],
  [0, 100, 1, 0, 0],
  [1, 0, 0, 0, 1],
  [1, 1, 0, 0, 1],
  [1, 49, 0, 0, 1],
  [1, 50, 0, 1, 0],
  [1, 99, 0, 1, 0],
  [1, 100, 0, 1, 0],
  [1, 0, 1, 0, 1],
  [1, 1, 1, 1, 1],
  [1, 49, 1, 1, 1],
  [1, 50, 1, 1, 1],
  [1, 99, 1, 1, 1],
  [1, 100, 1, 1, 0],
  [2, 0, 0, 0, 2],
  [2, 1, 0, 1, 1],
  [2, 50, 0, 1, 1],
  [2, 99, 0, 1, 1],
  [2, 100, 0, 2, 0],
  [2, 0, 1, 0, 2],
  [2, 1, 1, 1, 2],
  [2, 50, 1, 1, 1],
  [2, 99, 1, 2, 1],
  [2, 100, 1, 2, 0],
  [3, 10, 0, 1, 2],
  [3, 25, 0, 1, 2],
  [3, 33, 0, 1, 2],
  [3, 34, 0, 1, 2],
  [3, 49, 0, 1, 2],
  [3, 50, 0, 2, 1],
  [3, 10, 1, 1, 3],
  [3, 25, 1, 1, 3],
  [3, 33, 1, 1, 2],
  [3, 34, 1, 1, 2],
  [3, 49, 1, 2, 2],
  [3, 50, 1, 2, 2],
  [10, 0, 1, 0, 10],
  [10, 1, 0, 1, 9],
  [10, 14, 0, 1, 9],
  [10, 15, 0, 2, 8],
  [10, 16, 0, 2, 8],
  [10, 99, 0, 9, 1],
  [10, 100, 1, 10, 0],
  [10, 0, 1, 0, 10],
  [10, 1, 1, 1, 10],
  [10, 18, 1, 2, 9],
  [10, 19, 1, 2, 9],
  [10, 20, 1, 2, 8],
  [10, 23, 1, 2, 8],
  [10, 24, 1, 3, 8],
  [10, 25, 1, 3, 8],
  [10, 99, 1, 10, 1],
  [10, 100, 1, 10, 0],
];

describe("TestApproximateWeightedNewStableReplicaCounts (upstream's table)", () => {
  for (const [replicas, weight, maxSurge, canary, stable] of APPROXIMATE_CASES) {
    it(`replicas ${replicas}, weight ${weight}, surge ${maxSurge} → canary ${canary}, stable ${stable}`, () => {
      expect(approximateWeightedCanaryStableReplicaCounts(replicas, weight, 100, maxSurge)).toEqual({ newRS: canary, stable });
    });
  }
});

describe("CalculateReplicaCountsForBasicCanary without a separate stable ReplicaSet (upstream)", () => {
  it("TestCalculateReplicaCountsForNewDeployment: the new ReplicaSet goes to full size, the stable to 0", () => {
    const ro = rollout({ replicas: 10, setWeight: 10, maxSurge: 0, maxUnavailable: 1 });
    expect(calculateReplicaCountsForBasicCanary(ro, rs("stable", 10, 0), rs("stable", 10, 0), [])).toEqual({ newRS: 10, stable: 0 });
  });

  it("TestCalculateReplicaCountsForCanaryStableRSdEdgeCases: no stable, or the stable is the new one", () => {
    const ro = rollout({ replicas: 10, setWeight: 10, maxSurge: 0, maxUnavailable: 1, currentPodHash: "", stableRS: "" });
    const newRS = rs("stable", 9, 9);
    expect(calculateReplicaCountsForBasicCanary(ro, newRS, undefined, [])).toEqual({ newRS: 10, stable: 0 });
    expect(calculateReplicaCountsForBasicCanary(ro, newRS, newRS, [])).toEqual({ newRS: 10, stable: 0 });
  });

  it("TestCalculateReplicaCountsForCanaryTrafficRouting: canary from the weight, stable full", () => {
    const ro = rollout({ replicas: 10, setWeight: 10, maxSurge: 0, maxUnavailable: 1, routed: true });
    expect(calculateReplicaCountsForTrafficRoutedCanary(ro)).toEqual({ newRS: 1, stable: 10 });
  });
});

describe("TestGetReplicasForScaleDown (upstream's table)", () => {
  it("counts spec when scaling down or ignoring availability, else available pods", () => {
    expect(getReplicasForScaleDown(undefined, false)).toBe(0);
    expect(getReplicasForScaleDown(rs("x", 3, 5), false)).toBe(3);
    expect(getReplicasForScaleDown(rs("x", 3, 2), true)).toBe(3);
    expect(getReplicasForScaleDown(rs("x", 3, 2), false)).toBe(2);
  });
});

describe("TestAtDesiredReplicaCountsForCanary (upstream's cases, basic canary)", () => {
  const at = (weight: number, newRS: ReplicaSet, stableRS: ReplicaSet) =>
    atDesiredReplicaCountsForCanary(
      rollout({ replicas: 4, setWeight: weight, maxSurge: 1, maxUnavailable: 1, currentPodHash: "current" }),
      newRS,
      stableRS,
      [],
    );

  it("we are at desired replica counts and availability", () => {
    expect(at(50, rs("newRS", 2, 2, 2), rs("stable", 2, 2, 2))).toBe(true);
  });
  it("new replicaset is not at desired counts or availability", () => {
    expect(at(50, rs("newRS", 2, 1, 2), rs("stable", 2, 2, 2))).toBe(false);
  });
  it("stable replicaset is not at desired counts or availability", () => {
    expect(at(75, rs("newRS", 3, 3, 3), rs("stable", 2, 2, 2))).toBe(false);
  });
  it("stable replicaset is not at desired availability but is at correct count", () => {
    expect(at(75, rs("newRS", 3, 3, 1), rs("stable", 1, 0, 1))).toBe(true);
  });
  it("test that when status field lags behind spec.replicas we fail", () => {
    expect(at(50, rs("newRS", 2, 2, 2), rs("stable", 2, 2, 3))).toBe(false);
  });
  it("an older ReplicaSet with available pods keeps a basic canary from its desired counts", () => {
    const ro = rollout({ replicas: 4, setWeight: 50, maxSurge: 1, maxUnavailable: 1, currentPodHash: "current" });
    expect(atDesiredReplicaCountsForCanary(ro, rs("newRS", 2, 2, 2), rs("stable", 2, 2, 2), [rs("older", 1, 1, 1)])).toBe(false);
  });
});

describe("maxSurge / maxUnavailable (resolveFenceposts, defaults 25 %)", () => {
  const fenceposts = (replicas: number, maxSurge?: IntOrString, maxUnavailable?: IntOrString) => {
    const ro = rollout({ replicas });
    const canary = ro.spec.strategy.canary!;
    if (maxSurge === undefined) delete canary.maxSurge;
    else canary.maxSurge = maxSurge;
    if (maxUnavailable === undefined) delete canary.maxUnavailable;
    else canary.maxUnavailable = maxUnavailable;
    return [maxSurgeOf(ro), maxUnavailableOf(ro)];
  };

  it("defaults to 25 %: surge rounds up, unavailable down", () => {
    expect(fenceposts(4)).toEqual([1, 1]);
    expect(fenceposts(1)).toEqual([1, 0]);
    expect(fenceposts(10)).toEqual([3, 2]);
  });
  it("reads ints as they are and any string as a percentage", () => {
    expect(fenceposts(10, 2, "50%")).toEqual([2, 5]);
    expect(fenceposts(10, "30", 0)).toEqual([3, 0]);
  });
  it("makes maxUnavailable 1 when both come to 0, caps it at the replicas, and is 0 without replicas", () => {
    expect(fenceposts(3, "10%", "10%")).toEqual([1, 0]);
    expect(fenceposts(3, 0, "10%")).toEqual([0, 1]);
    expect(fenceposts(2, 0, 5)).toEqual([0, 2]);
    expect(fenceposts(0)).toEqual([0, 0]);
  });
});
