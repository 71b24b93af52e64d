import { describe, expect, it } from "vitest";
import { clampPercent, formatPercent } from "./percent";

describe("formatPercent", () => {
  it.each([
    [30, "30%"],
    [0, "0%"],
    [100, "100%"],
    [33.333, "33.3%"],
    [12.25, "12.3%"],
    [-0.01, "0%"],
  ])("%d → %s", (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });

  it("honours the fraction digits", () => {
    expect(formatPercent(33.333, 0)).toBe("33%");
    expect(formatPercent(33.336, 2)).toBe("33.34%");
  });

  it.each([null, undefined, Number.NaN, Number.POSITIVE_INFINITY])("%s → dash", (value) => {
    expect(formatPercent(value)).toBe("—");
  });
});

describe("clampPercent", () => {
  it.each([
    [-5, 0],
    [42, 42],
    [140, 100],
    [null, 0],
    [Number.NaN, 0],
  ])("%s → %d", (value, clamped) => {
    expect(clampPercent(value)).toBe(clamped);
  });
});
