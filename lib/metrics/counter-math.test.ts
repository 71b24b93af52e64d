import { describe, expect, it } from "vitest";
import { GROUP_LABEL, PART_LABEL } from "./types";
import {
  computeWindowIncreases,
  increasesBetweenSteps,
  histogramQuantile,
  quantileSeries,
  sumSeriesBy,
  sumSeriesPerGroup,
} from "./counter-math";

const S = 1000;

describe("computeWindowIncreases", () => {
  const coverage = { fromMs: 0, toMs: 1_000 * S };

  it("adds the changes inside each window and treats unchanged stretches as zero", () => {
    const points = [
      { atMs: 10 * S, value: 5 },
      { atMs: 70 * S, value: 8 },
      { atMs: 100 * S, value: 10 },
    ];
    expect(computeWindowIncreases(points, [60 * S, 120 * S, 180 * S], 60 * S, coverage)).toEqual([0, 5, 0]);
  });

  it("counts a reset as an increase of the new value (Prometheus' rule)", () => {
    const points = [
      { atMs: 10 * S, value: 50 },
      { atMs: 70 * S, value: 3 },
      { atMs: 80 * S, value: 7 },
    ];
    expect(computeWindowIncreases(points, [120 * S], 60 * S, coverage)).toEqual([7]);
  });

  it("is null before the series exists and outside scrape coverage", () => {
    const points = [
      { atMs: 100 * S, value: 0 },
      { atMs: 130 * S, value: 2 },
    ];
    expect(computeWindowIncreases(points, [60 * S, 120 * S, 180 * S], 60 * S, coverage)).toEqual([null, 0, 2]);
    expect(computeWindowIncreases(points, [180 * S, 240 * S], 60 * S, { fromMs: 0, toMs: 170 * S })).toEqual([2, null]);
    expect(computeWindowIncreases(points, [180 * S], 60 * S, null)).toEqual([null]);
  });
});

describe("histogramQuantile", () => {
  it("interpolates inside the bucket holding the rank", () => {
    const buckets = [
      { le: 0.1, count: 50 },
      { le: 0.5, count: 90 },
      { le: Infinity, count: 100 },
    ];
    expect(histogramQuantile(0.5, buckets)).toBeCloseTo(0.1);
    expect(histogramQuantile(0.7, buckets)).toBeCloseTo(0.3);
    expect(histogramQuantile(0.25, buckets)).toBeCloseTo(0.05);
  });

  it("returns the highest finite bound when the rank is in +Inf, null without observations", () => {
    expect(
      histogramQuantile(0.99, [
        { le: 1, count: 1 },
        { le: Infinity, count: 10 },
      ]),
    ).toBe(1);
    expect(
      histogramQuantile(0.5, [
        { le: 1, count: 0 },
        { le: Infinity, count: 0 },
      ]),
    ).toBeNull();
    expect(histogramQuantile(0.5, [{ le: 1, count: 3 }])).toBeNull();
  });

  it("makes non-monotonic bucket increases monotonic first", () => {
    expect(
      histogramQuantile(0.5, [
        { le: 0.1, count: 6 },
        { le: 0.2, count: 5 },
        { le: Infinity, count: 10 },
      ]),
    ).toBeCloseTo(0.0833, 3);
  });
});

describe("quantileSeries and sumSeriesBy", () => {
  it("adds buckets of equal le across objects before interpolating", () => {
    const series = [
      { labels: { name: "a", le: "0.1" }, values: [1, null] },
      { labels: { name: "a", le: "+Inf" }, values: [1, null] },
      { labels: { name: "b", le: "0.1" }, values: [0, null] },
      { labels: { name: "b", le: "+Inf" }, values: [3, null] },
    ];
    expect(sumSeriesBy(series, ["le"])).toEqual([
      { labels: { le: "0.1" }, values: [1, null] },
      { labels: { le: "+Inf" }, values: [4, null] },
    ]);
    const [first, second] = quantileSeries(0.5, series, 2);
    expect(first).toBe(0.1);
    expect(second).toBeNull();
  });
});

describe("sumSeriesPerGroup", () => {
  it("adds each Rollout's series into every group it belongs to, by the part's labels, tagged as Prometheus tags them", () => {
    const perRollout = [
      { labels: { namespace: "shop", name: "storefront", le: "0.5" }, values: [1, 2] },
      { labels: { namespace: "shop", name: "checkout", le: "0.5" }, values: [null, 3] },
      { labels: { namespace: "shop", name: "other", le: "0.5" }, values: [9, 9] },
    ];
    const groups = [
      {
        key: "0",
        rollouts: [
          { namespace: "shop", name: "storefront" },
          { namespace: "shop", name: "checkout" },
        ],
      },
      { key: "1", rollouts: [{ namespace: "shop", name: "storefront" }] },
    ];
    expect(sumSeriesPerGroup(perRollout, groups, { index: 2, by: ["le"] })).toEqual([
      { labels: { [GROUP_LABEL]: "0", [PART_LABEL]: "2", le: "0.5" }, values: [1, 5] },
      { labels: { [GROUP_LABEL]: "1", [PART_LABEL]: "2", le: "0.5" }, values: [1, 2] },
    ]);
  });
});

describe("increasesBetweenSteps", () => {
  it("counts each window's increase from the values at its boundaries, a reset's value whole", () => {
    expect(increasesBetweenSteps([500, 500, 510, 4, 4])).toStrictEqual([0, 10, 4, 0]);
  });

  it("counts a series born in the range from zero: its first value is the failures it appeared with", () => {
    expect(increasesBetweenSteps([null, null, 3, 3, 5])).toStrictEqual([null, 3, 0, 2]);
  });

  it("leaves a window without a value at its end empty, and carries on from the last value after a gap", () => {
    expect(increasesBetweenSteps([7, null, 9])).toStrictEqual([null, 2]);
    expect(increasesBetweenSteps([])).toStrictEqual([]);
  });
});
