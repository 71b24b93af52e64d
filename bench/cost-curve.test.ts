import { describe, expect, it } from "vitest";
import { costCurveChart, curveShape, formatCurveTable, missingPoint, parseSizes, type CurvePoint } from "./cost-curve";

const point = (rollouts: number, over: Partial<CurvePoint> = {}): CurvePoint => ({
  ...curveShape(rollouts),
  rollouts,
  rssWarmBytes: 300 * 1024 * 1024,
  rssAfterChurnBytes: 400 * 1024 * 1024,
  overviewP95Ms: 50,
  firstRowMs: 900,
  domP95Ms: 120,
  ...over,
});

describe("curveShape", () => {
  it("holds each size exactly in the fewest clusters of at most 400 Rollouts", () => {
    expect([1000, 5000, 10000, 20000, 100].map(curveShape)).toEqual([
      { clusters: 4, rolloutsPerCluster: 250 },
      { clusters: 20, rolloutsPerCluster: 250 },
      { clusters: 25, rolloutsPerCluster: 400 },
      { clusters: 50, rolloutsPerCluster: 400 },
      { clusters: 1, rolloutsPerCluster: 100 },
    ]);
    for (const size of [1, 401, 997, 12345]) {
      const shape = curveShape(size);
      expect(shape.clusters * shape.rolloutsPerCluster).toBe(size);
      expect(shape.rolloutsPerCluster).toBeLessThanOrEqual(400);
    }
  });
});

describe("parseSizes", () => {
  it("reads Rollout counts separated by commas and refuses anything else", () => {
    expect(parseSizes("1000, 5000,20000")).toEqual([1000, 5000, 20000].map(curveShape));
    expect(parseSizes("50000@100")).toEqual([{ clusters: 100, rolloutsPerCluster: 500 }]);
    for (const bad of ["", "1000,", "1e3x", "-5", "0", "2.5", "50000@0", "50000@99", "50000@100@2", "50000@"])
      expect(() => parseSizes(bad), bad).toThrow(/--sizes/);
  });
});

describe("formatCurveTable", () => {
  it("has one row per size with its shape and the four figures, n/a for a size that was not measured", () => {
    const table = formatCurveTable([point(1000), missingPoint(curveShape(20000))]);
    const lines = table.split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/Rollouts.*RSS.*Overview API p95.*First row.*Write → DOM p95/);
    expect(lines[2].split("|").map((c) => c.trim())).toEqual(["", "1,000 (4 × 250)", "300 MB / 400 MB", "50 ms", "900 ms", "120 ms", ""]);
    expect(lines[3].split("|").map((c) => c.trim())).toEqual(["", "20,000 (50 × 400)", "n/a / n/a", "n/a", "n/a", "n/a", ""]);
  });
});

describe("costCurveChart", () => {
  it("draws the four measures, one panel each, with every size on the x axis and each value written at its point", () => {
    const svg = costCurveChart([point(5000, { overviewP95Ms: 123 }), point(1000, { overviewP95Ms: 45 })], "caption");
    for (const title of ["Server RSS after churn", "Overview API p95", "First rollout row", "Write → DOM p95"])
      expect(svg).toContain(`>${title}</text>`);
    expect(svg.match(/<polyline /g)).toHaveLength(4);
    expect(svg).toContain(">1k</text>");
    expect(svg).toContain(">5k</text>");
    expect(svg).toContain(">45</text>");
    expect(svg).toContain(">123</text>");
    expect(svg).toContain("target: 150 ms");
  });
});
