import { describe, expect, it } from "vitest";
import { computeMeasuredShare, findStuckRouter, mergeMeasuredTrafficTemplates, selectMeasuredTrafficTemplate } from "./measured-traffic";

describe("template selection", () => {
  const templates = mergeMeasuredTrafficTemplates(
    { "argoproj-labs/gatewayAPI": { canary: "c", total: "t" } },
    { Istio: { canary: "ci", total: "ti" } },
  );

  it("layers defaults, fleet and cluster templates", () => {
    expect(templates.Istio.origin).toBe("cluster");
    expect(templates.Nginx.origin).toBe("default");
    expect(templates["argoproj-labs/gatewayAPI"].origin).toBe("fleet");
  });

  it("picks the first router with a template, else generic", () => {
    expect(selectMeasuredTrafficTemplate([{ kind: "plugin", name: "argoproj-labs/gatewayAPI" }], templates)?.template.key).toBe(
      "argoproj-labs/gatewayAPI",
    );
    expect(selectMeasuredTrafficTemplate([{ kind: "plugin", name: "argoproj-labs/contour" }], templates)?.template.key).toBe(
      "argoproj-labs/contour",
    );
    expect(selectMeasuredTrafficTemplate([{ kind: "plugin", name: "acme/unknown" }], templates)?.template.key).toBe("generic");
    expect(
      selectMeasuredTrafficTemplate(
        [
          { kind: "builtin", name: "Nginx" },
          { kind: "plugin", name: "x/y" },
        ],
        templates,
      )?.router,
    ).toBe("Nginx");
    expect(selectMeasuredTrafficTemplate([], templates)).toBeNull();
  });
});

describe("computeMeasuredShare", () => {
  it("says no traffic for empty or zero totals and 0 % for a missing canary series", () => {
    expect(computeMeasuredShare([1, 2, 3, 4], [2, null, null, 30], [10, 5, 0, null])).toEqual([
      { atMs: 1, canaryPercent: 20, requestsPerSecond: 10 },
      { atMs: 2, canaryPercent: 0, requestsPerSecond: 5 },
      { atMs: 3, canaryPercent: null, requestsPerSecond: 0 },
      { atMs: 4, canaryPercent: null, requestsPerSecond: null },
    ]);
  });
});

describe("findStuckRouter", () => {
  const measured = (values: Array<number | null>) =>
    values.map((canaryPercent, i) => ({ atMs: i * 15_000, canaryPercent, requestsPerSecond: 10 }));

  it("finds an ongoing run beyond tolerance that lasted long enough", () => {
    const run = findStuckRouter({
      applied: [{ atMs: 0, canaryPercent: 50 }],
      measured: measured([48, 10, 10, 11, 10, 10, 10, 10, 10, 10]),
      tolerancePercent: 10,
      forSeconds: 120,
    });
    expect(run).toEqual({ sinceMs: 15_000, untilMs: 135_000, appliedPercent: 50, measuredPercent: 10 });
  });

  it("follows applied weight changes and ignores short or finished runs", () => {
    const applied = [
      { atMs: 0, canaryPercent: 10 },
      { atMs: 60_000, canaryPercent: 50 },
    ];
    expect(findStuckRouter({ applied, measured: measured([10, 10, 10, 10, 48, 50, 51]), tolerancePercent: 10, forSeconds: 30 })).toBeNull();
    expect(
      findStuckRouter({ applied, measured: measured([10, 10, 10, 10, 10, 10, 10]), tolerancePercent: 10, forSeconds: 300 }),
    ).toBeNull();
    expect(
      findStuckRouter({ applied, measured: measured([10, 10, 10, 10, 10, 10, null]), tolerancePercent: 10, forSeconds: 15 }),
    ).toBeNull();
  });

  it("only compares points whose rate window did not span a weight change", () => {
    const applied = [
      { atMs: 0, canaryPercent: 10 },
      { atMs: 60_000, canaryPercent: 50 },
    ];
    const lagging = measured([10, 10, 10, 10, 10, 30, 50]);
    expect(findStuckRouter({ applied, measured: lagging, tolerancePercent: 10, forSeconds: 0, settleSeconds: 20 })).toBeNull();
    const stuck = measured([10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
    expect(findStuckRouter({ applied, measured: stuck, tolerancePercent: 10, forSeconds: 30, settleSeconds: 20 })).toMatchObject({
      sinceMs: 90_000,
      untilMs: 135_000,
    });
  });
});
