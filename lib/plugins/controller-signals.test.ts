import { describe, expect, it } from "vitest";
import { GROUP_LABEL, PART_LABEL, type IncreaseSeries } from "@/lib/metrics/types";
import { groupControllerSignals, readGroupedSignals } from "./controller-signals";

const series = (labels: Record<string, string>, values: Array<number | null>): IncreaseSeries => ({ labels, values });

describe("groupControllerSignals", () => {
  const wanted = new Set(["shop/storefront", "shop/checkout"]);
  const grouped = groupControllerSignals({
    events: [
      series({ namespace: "shop", name: "storefront", reason: "TrafficWeightUpdated" }, [1, 2]),
      series({ namespace: "shop", name: "storefront", reason: "TrafficRoutingError" }, [null, 3]),
      series({ namespace: "shop", name: "storefront", reason: "WeightVerifyError" }, [1, 0]),
      series({ namespace: "shop", name: "storefront", reason: "RolloutUpdated" }, [9, 9]),
      series({ namespace: "other", name: "storefront", reason: "TrafficRoutingError" }, [5, 5]),
    ],
    reconcileErrors: [series({ namespace: "shop", name: "storefront" }, [0, 3])],
    reconciles: [series({ namespace: "shop", name: "storefront" }, [4, 10]), series({ namespace: "shop", name: "checkout" }, [4, 4])],
    wanted,
    length: 2,
  });

  it("sorts each Rollout's controller series into the derived signals", () => {
    expect(grouped.get("shop/storefront")).toEqual({
      weightUpdates: [1, 2],
      routingErrors: [null, 3],
      verifyErrors: [1, 0],
      reconcileErrors: [0, 3],
      reconciles: [4, 10],
    });
    expect(grouped.get("shop/checkout")).toEqual({
      weightUpdates: [null, null],
      routingErrors: [null, null],
      verifyErrors: [null, null],
      reconcileErrors: [null, null],
      reconciles: [4, 4],
    });
  });

  it("drops Rollouts that were not asked for (a cluster-wide answer narrowed here)", () => {
    expect([...grouped.keys()]).toEqual(["shop/storefront", "shop/checkout"]);
  });
});

describe("readGroupedSignals", () => {
  const part = (group: string, index: number, labels: Record<string, string>, values: Array<number | null>) =>
    series({ [GROUP_LABEL]: group, [PART_LABEL]: String(index), ...labels }, values);

  it("sorts each group's summed series into the derived signals by part and event reason", () => {
    const grouped = readGroupedSignals(
      [
        part("0", 0, { reason: "TrafficWeightUpdated" }, [1, 2]),
        part("0", 0, { reason: "TrafficRoutingError" }, [null, 3]),
        part("0", 0, { reason: "WeightVerifyError" }, [1, 0]),
        part("0", 1, {}, [0, 3]),
        part("0", 2, {}, [4, 10]),
        part("1", 2, {}, [4, 4]),
      ],
      2,
    );
    expect(grouped.get("0")).toEqual({
      weightUpdates: [1, 2],
      routingErrors: [null, 3],
      verifyErrors: [1, 0],
      reconcileErrors: [0, 3],
      reconciles: [4, 10],
    });
    expect(grouped.get("1")).toEqual({
      weightUpdates: [null, null],
      routingErrors: [null, null],
      verifyErrors: [null, null],
      reconcileErrors: [null, null],
      reconciles: [4, 4],
    });
  });
});
