import { describe, expect, it } from "vitest";
import type { MeasuredTraffic, RolloutHistory, WeightPoint } from "@/lib/rollouts/detail-types";
import { measuredNote, timeTicks, toWeightChartData as chartOf, windowIndexes, withTimeGrid } from "./weight-chart-data";

type HistoryWithMeasured = RolloutHistory & { measured: MeasuredTraffic | null };
const toWeightChartData = (h: HistoryWithMeasured) => chartOf(h, h.measured);

const point = (
  at: string,
  requested: number,
  canary: number,
  verified: boolean | null = true,
  stepIndex: number | null = null,
  revision = "3",
): WeightPoint => ({
  at,
  requested,
  canary,
  stable: 100 - canary,
  verified,
  stepIndex,
  phase: "Progressing",
  revision,
});

const history = (overrides: Partial<HistoryWithMeasured> = {}): HistoryWithMeasured => ({
  range: "1h",
  from: "2026-08-18T09:00:00Z",
  to: "2026-08-18T10:00:00Z",
  points: [],
  markers: [],
  measured: null,
  ...overrides,
});

const t = (iso: string) => Date.parse(iso);

describe("toWeightChartData", () => {
  it("extends the last weight to the end of the range and clamps the opening state to `from`", () => {
    const data = toWeightChartData(history({ points: [point("2026-08-18T08:30:00Z", 10, 10), point("2026-08-18T09:20:00Z", 30, 20)] }));
    expect(data.rows).toEqual([
      { t: t("2026-08-18T09:00:00Z"), requested: 10, applied: 10, measured: null, verified: true },
      { t: t("2026-08-18T09:20:00Z"), requested: 30, applied: 20, measured: null, verified: true },
      { t: t("2026-08-18T10:00:00Z"), requested: 30, applied: 20, measured: null, verified: true },
    ]);
    expect(data.pointCount).toBe(2);
  });

  it("aligns measured samples by timestamp and carries the weights onto them, not the other way round", () => {
    const data = toWeightChartData(
      history({
        points: [point("2026-08-18T09:10:00Z", 30, 30)],
        measured: {
          source: "prometheus",
          error: null,
          points: [
            { at: "2026-08-18T09:05:00Z", canaryPercent: 0, requestsPerSecond: 12 },
            { at: "2026-08-18T09:15:00Z", canaryPercent: 28.5, requestsPerSecond: 12 },
          ],
        },
      }),
    );
    expect(data.rows.map((r) => [r.t, r.applied, r.measured])).toEqual([
      [t("2026-08-18T09:05:00Z"), null, 0],
      [t("2026-08-18T09:10:00Z"), 30, null],
      [t("2026-08-18T09:15:00Z"), 30, 28.5],
      [t("2026-08-18T10:00:00Z"), 30, null],
    ]);
    expect(data.measured).toEqual({ status: "ok", source: "prometheus" });
    expect(measuredNote(data.measured)).toBeNull();
  });

  it("turns verified=false stretches into bands, open ones ending at `to`", () => {
    const data = toWeightChartData(
      history({
        points: [
          point("2026-08-18T09:10:00Z", 10, 10, false),
          point("2026-08-18T09:12:00Z", 10, 10, true),
          point("2026-08-18T09:40:00Z", 50, 50, false),
          point("2026-08-18T09:45:00Z", 50, 50, false),
        ],
      }),
    );
    expect(data.unverified).toEqual([
      { from: t("2026-08-18T09:10:00Z"), to: t("2026-08-18T09:12:00Z") },
      { from: t("2026-08-18T09:40:00Z"), to: t("2026-08-18T10:00:00Z") },
    ]);
  });

  it("keeps markers inside the range, sorted, actor included", () => {
    const data = toWeightChartData(
      history({
        markers: [
          { at: "2026-08-18T09:30:00Z", kind: "promote", label: "Promoted", actor: "alice" },
          { at: "2026-08-18T08:00:00Z", kind: "revision", label: "Revision 3" },
          { at: "2026-08-18T09:10:00Z", kind: "pause", label: "Paused at step 2" },
        ],
      }),
    );
    expect(data.markers).toEqual([
      { t: t("2026-08-18T09:10:00Z"), kind: "pause", label: "Paused at step 2" },
      { t: t("2026-08-18T09:30:00Z"), kind: "promote", label: "Promoted", actor: "alice" },
    ]);
    expect(data.rows).toEqual([]);
  });

  it("explains a missing measured line", () => {
    expect(measuredNote(toWeightChartData(history()).measured)).toBe("measured traffic: no metrics source configured");
    const failing = toWeightChartData(history({ measured: { source: "prometheus", error: "upstream unavailable", points: [] } }));
    expect(measuredNote(failing.measured)).toBe("measured traffic: upstream unavailable");
    const selfDescribed = toWeightChartData(
      history({ measured: { source: "none", error: "measured traffic needs Prometheus", points: [] } }),
    );
    expect(measuredNote(selfDescribed.measured)).toBe("measured traffic needs Prometheus");
    const idle = toWeightChartData(
      history({
        measured: {
          source: "prometheus",
          error: null,
          points: [{ at: "2026-08-18T09:05:00Z", canaryPercent: null, requestsPerSecond: 0 }],
        },
      }),
    );
    expect(measuredNote(idle.measured)).toBe("measured traffic: no traffic");
    const unknownRouter = toWeightChartData(
      history({
        measured: {
          source: "prometheus",
          error: null,
          points: [{ at: "2026-08-18T09:05:00Z", canaryPercent: null, requestsPerSecond: null }],
          configureHint: 'set plugins.measuredTraffic.templates["acme/mesh"] (docs/plugins.md, Measured traffic)',
        },
      }),
    );
    expect(measuredNote(unknownRouter.measured)).toBe(
      'measured traffic: set plugins.measuredTraffic.templates["acme/mesh"] (docs/plugins.md, Measured traffic)',
    );
  });
});

describe("timeTicks", () => {
  const at = (iso: string) => Date.parse(iso);

  it("picks round steps for each range", () => {
    const fifteen = timeTicks(at("2026-08-18T09:03:20Z"), at("2026-08-18T09:18:20Z"));
    expect(fifteen.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual([
      "09:04",
      "09:06",
      "09:08",
      "09:10",
      "09:12",
      "09:14",
      "09:16",
      "09:18",
    ]);
    const hour = timeTicks(at("2026-08-18T09:03:20Z"), at("2026-08-18T10:03:20Z"));
    expect(hour.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(["09:10", "09:20", "09:30", "09:40", "09:50", "10:00"]);
    const week = timeTicks(at("2026-08-11T09:00:00Z"), at("2026-08-18T09:00:00Z"));
    expect(week.map((t) => new Date(t).toISOString().slice(5, 16))).toEqual([
      "08-12T00:00",
      "08-13T00:00",
      "08-14T00:00",
      "08-15T00:00",
      "08-16T00:00",
      "08-17T00:00",
      "08-18T00:00",
    ]);
  });

  it("aligns to the local wall clock", () => {
    const day = timeTicks(at("2026-08-17T09:00:00Z"), at("2026-08-18T09:00:00Z"), 8, 120);
    expect(day.map((t) => new Date(t + 120 * 60_000).toISOString().slice(11, 16))).toEqual([
      "12:00",
      "15:00",
      "18:00",
      "21:00",
      "00:00",
      "03:00",
      "06:00",
      "09:00",
    ]);
    const week = timeTicks(at("2026-08-11T09:00:00Z"), at("2026-08-18T09:00:00Z"), 8, 120);
    expect(week.map((t) => new Date(t + 120 * 60_000).toISOString().slice(11, 16))).toEqual(Array(7).fill("00:00"));
  });

  it("returns nothing for an empty range", () => {
    expect(timeTicks(10, 10)).toEqual([]);
  });
});

describe("step segments", () => {
  it("starts a segment where the step or the revision changes and reports its last applied weight and any verified=false", () => {
    const data = toWeightChartData(
      history({
        points: [
          point("2026-08-18T08:50:00Z", 0, 0, true, 4, "2"),
          point("2026-08-18T09:10:00Z", 20, 0, null, 0, "3"),
          point("2026-08-18T09:11:00Z", 20, 20, false, 0, "3"),
          point("2026-08-18T09:12:00Z", 20, 20, true, 0, "3"),
          point("2026-08-18T09:30:00Z", 50, 50, true, 2, "3"),
        ],
        measured: {
          source: "prometheus",
          error: null,
          points: [
            { at: "2026-08-18T09:15:00Z", canaryPercent: 18, requestsPerSecond: 5 },
            { at: "2026-08-18T09:20:00Z", canaryPercent: 22, requestsPerSecond: 5 },
            { at: "2026-08-18T09:40:00Z", canaryPercent: 49, requestsPerSecond: 5 },
          ],
        },
      }),
    );
    expect(data.segments).toEqual([
      {
        from: t("2026-08-18T09:00:00Z"),
        to: t("2026-08-18T09:10:00Z"),
        revision: "2",
        stepIndex: 4,
        requested: 0,
        applied: 0,
        verified: true,
        measured: null,
      },
      {
        from: t("2026-08-18T09:10:00Z"),
        to: t("2026-08-18T09:30:00Z"),
        revision: "3",
        stepIndex: 0,
        requested: 20,
        applied: 20,
        verified: false,
        measured: 20,
      },
      {
        from: t("2026-08-18T09:30:00Z"),
        to: t("2026-08-18T10:00:00Z"),
        revision: "3",
        stepIndex: 2,
        requested: 50,
        applied: 50,
        verified: true,
        measured: 49,
      },
    ]);
  });
});

describe("step segments across revisions", () => {
  it("starts a new segment when a new revision begins at the same step index", () => {
    const data = toWeightChartData(
      history({ points: [point("2026-08-18T09:10:00Z", 20, 20, true, 0, "3"), point("2026-08-18T09:20:00Z", 20, 0, true, 0, "4")] }),
    );
    expect(data.segments.map((s) => [s.revision, s.stepIndex, s.applied])).toEqual([
      ["3", 0, 20],
      ["4", 0, 0],
    ]);
  });
});

describe("the first window", () => {
  it("fits the current revision's span, with a little before it", () => {
    const data = toWeightChartData(
      history({
        range: "24h",
        from: "2026-08-17T10:00:00Z",
        points: [point("2026-08-17T09:00:00Z", 0, 0, true, 4, "2"), point("2026-08-18T09:40:00Z", 20, 20, true, 0, "3")],
      }),
    );
    expect(data.window).toEqual({ from: t("2026-08-18T09:39:00Z"), to: t("2026-08-18T10:00:00Z") });
  });

  it("is the whole range when the current revision ran from its start, or nothing is recorded", () => {
    const data = toWeightChartData(
      history({ points: [point("2026-08-18T08:00:00Z", 20, 20, true, 0, "3"), point("2026-08-18T09:30:00Z", 50, 50, true, 1, "3")] }),
    );
    expect(data.window).toEqual({ from: t("2026-08-18T09:00:00Z"), to: t("2026-08-18T10:00:00Z") });
    expect(toWeightChartData(history()).window).toEqual({ from: t("2026-08-18T09:00:00Z"), to: t("2026-08-18T10:00:00Z") });
  });

  it("is at least two minutes wide when the revision began just now", () => {
    const data = toWeightChartData(
      history({ points: [point("2026-08-18T08:00:00Z", 0, 0, true, 4, "2"), point("2026-08-18T09:59:50Z", 20, 20, true, 0, "3")] }),
    );
    expect(data.window).toEqual({ from: t("2026-08-18T09:58:00Z"), to: t("2026-08-18T10:00:00Z") });
  });
});

describe("brush grid", () => {
  const rows = [
    { t: 0, requested: 10, applied: 10, measured: null, verified: true },
    { t: 250, requested: 30, applied: 20, measured: null, verified: false },
    { t: 1000, requested: 30, applied: 20, measured: null, verified: false },
  ];

  it("adds evenly spaced rows that carry the weights forward", () => {
    const grid = withTimeGrid(rows, 0, 1000, 4);
    expect(grid.map((r) => [r.t, r.requested, r.applied, r.verified])).toEqual([
      [0, 10, 10, true],
      [250, 30, 20, false],
      [500, 30, 20, false],
      [750, 30, 20, false],
      [1000, 30, 20, false],
    ]);
  });

  it("maps a time window to the brush's row indexes", () => {
    const grid = withTimeGrid(rows, 0, 1000, 4);
    expect(windowIndexes(grid, { from: 400, to: 1000 })).toEqual({ startIndex: 2, endIndex: 4 });
    expect(windowIndexes(grid, { from: 0, to: 1000 })).toEqual({ startIndex: 0, endIndex: 4 });
  });
});
