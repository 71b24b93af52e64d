import { describe, expect, it } from "vitest";
import { GROUP_LABEL, PART_LABEL, type IncreaseSeries } from "@/lib/metrics/types";
import { readGroupedSignals } from "./controller-signals";

const series = (labels: Record<string, string>, values: Array<number | null>): IncreaseSeries => ({ labels, values });

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
