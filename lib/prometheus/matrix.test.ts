import { describe, expect, it } from "vitest";
import { alignMatrix, listRangeTimestamps, parseSampleValue, queryResponseSchema, sumAligned } from "./matrix";

describe("alignMatrix", () => {
  const timestamps = listRangeTimestamps(60_000, 300_000, 60_000);

  it("places samples by timestamp, leaving gaps where Prometheus omitted a step", () => {
    const aligned = alignMatrix(
      [
        {
          metric: { plugin: "a" },
          values: [
            [60, "1"],
            [180, "3"],
            [300, "NaN"],
          ],
        },
        {
          metric: { plugin: "b" },
          values: [
            [240, "+Inf"],
            [241, "9"],
          ],
        },
      ],
      timestamps,
    );
    expect(aligned[0]).toEqual({ labels: { plugin: "a" }, values: [1, null, 3, null, null] });
    expect(aligned[1].values).toEqual([null, null, null, 9, null]);
  });

  it("sums series point by point", () => {
    expect(
      sumAligned(
        [
          { labels: {}, values: [1, null, 2] },
          { labels: {}, values: [null, null, 3] },
        ],
        3,
      ),
    ).toEqual([1, null, 5]);
  });

  it("parses values and responses", () => {
    expect(parseSampleValue("1e3")).toBe(1000);
    expect(parseSampleValue("-Inf")).toBeNull();
    const error = queryResponseSchema.parse({ status: "error", errorType: "bad_data", error: "parse error" });
    expect(error.status).toBe("error");
    expect(listRangeTimestamps(0, 10, 0)).toEqual([]);
  });
});
