import { describe, expect, it } from "vitest";
import { formatDuration, secondsSince, secondsUntil } from "./duration";

describe("formatDuration", () => {
  it.each([
    [0, "0s"],
    [45, "45s"],
    [59.9, "59s"],
    [60, "1m 00s"],
    [245, "4m 05s"],
    [3599, "59m 59s"],
    [3600, "1h 00m"],
    [3720, "1h 02m"],
    [86_399, "23h 59m"],
    [93_600, "1d 02h"],
    [8 * 86_400, "8d 00h"],
    [-12, "0s"],
  ])("%d s → %s", (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([null, undefined, Number.NaN])("%s → dash", (value) => {
    expect(formatDuration(value)).toBe("—");
  });
});

describe("secondsUntil / secondsSince", () => {
  const now = Date.parse("2026-08-18T09:41:00Z");

  it("rounds the remaining time up so a countdown reaches 0 only at the end", () => {
    expect(secondsUntil("2026-08-18T09:46:00Z", now)).toBe(300);
    expect(secondsUntil("2026-08-18T09:41:00.200Z", now)).toBe(1);
  });

  it("never goes negative", () => {
    expect(secondsUntil("2026-08-18T09:40:00Z", now)).toBe(0);
    expect(secondsSince("2026-08-18T09:42:00Z", now)).toBe(0);
  });

  it("counts elapsed whole seconds", () => {
    expect(secondsSince("2026-08-18T09:36:54.500Z", now)).toBe(245);
  });

  it("returns null without a usable time", () => {
    expect(secondsUntil(null, now)).toBeNull();
    expect(secondsSince("not a date", now)).toBeNull();
  });
});
