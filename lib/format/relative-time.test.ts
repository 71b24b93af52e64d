import { describe, expect, it } from "vitest";
import { formatAbsoluteTime, formatAxisTime, formatRelativeTime } from "./relative-time";

const now = Date.parse("2026-08-18T12:00:00Z");
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe("formatRelativeTime", () => {
  it.each([
    [0, "just now"],
    [4, "just now"],
    [45, "45s ago"],
    [60, "1m ago"],
    [12 * 60 + 59, "12m ago"],
    [3 * 3600 + 120, "3h ago"],
    [2 * 86_400 + 5, "2d ago"],
    [-20, "just now"],
    [-300, "in 5m"],
  ])("%d s ago → %s", (seconds, text) => {
    expect(formatRelativeTime(ago(seconds), now)).toBe(text);
  });

  it("handles missing and bad input", () => {
    expect(formatRelativeTime(null, now)).toBe("—");
    expect(formatRelativeTime("yesterday", now)).toBe("—");
  });
});

describe("formatAbsoluteTime", () => {
  it("formats in the given zone", () => {
    expect(formatAbsoluteTime("2026-08-18T09:41:02Z", "UTC")).toBe("2026-08-18 09:41:02 UTC");
    expect(formatAbsoluteTime(Date.parse("2026-08-18T09:41:02Z"), "UTC")).toBe("2026-08-18 09:41:02 UTC");
  });

  it("returns an empty title for missing input", () => {
    expect(formatAbsoluteTime(null)).toBe("");
    expect(formatAbsoluteTime("nope")).toBe("");
  });
});

describe("formatAxisTime", () => {
  const at = Date.parse("2026-08-18T09:41:30Z");
  it("picks the precision from the span", () => {
    expect(formatAxisTime(at, 15 * 60_000, "UTC")).toBe("09:41:30");
    expect(formatAxisTime(at, 6 * 3_600_000, "UTC")).toBe("09:41");
    expect(formatAxisTime(at, 7 * 86_400_000, "UTC")).toBe("18 Aug, 09:41");
  });
});
